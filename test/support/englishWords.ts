/**
 * Common English words that never occur in Portuguese text (the words of Ajv's and of the back office's old
 * English, as in test/dashboard/messagesWalk.test.ts). An identifier joined by `_` (failed_unknown) or by `.`
 * is not a word of the text, so letters, digits and `_` around a match rule it out.
 */
export const ENGLISH_WORD =
  /(?<![\p{L}\p{N}_])(must|have|has|than|characters|the|invalid|request|required|property|properties|match|pattern|format|should|equal|allowed|values|fewer|items|additional|unknown|parameter|query|body|string|integer|boolean|array|object|not|is|are|be|of|and|or|with|found|only|cannot|try|again|your|you|too|many|wait|minutes|sign|enter|code|already|exists|account|charge|withdrawal|refund|recipient|hold|operator|error|internal|missing|exceeds|limit|reached|does|resolve|read|server|roles|action|needs|this|status|an|to|on|at|in|it|for|from)(?![\p{L}\p{N}_])/iu;

/** The first English word of `text`, or undefined; a value quoted as the API spells it ('withdrawal') is an identifier, not text. */
export function englishWordIn(text: string): string | undefined {
  return ENGLISH_WORD.exec(text.replace(/'[^'\s]*'/gu, "''"))?.[1];
}
