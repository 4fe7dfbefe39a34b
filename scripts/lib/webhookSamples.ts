/**
 * The "Verifying signatures" section of the webhooks page (generated/docs/webhooks.html): how to verify a
 * delivery, and check an implementation against the documented test vector, in JavaScript/TypeScript,
 * Python, PHP and Java with the Standard Webhooks libraries (`standardwebhooks` on npm and PyPI,
 * `standard-webhooks/standard-webhooks` on Packagist, `com.standardwebhooks:standardwebhooks` on Maven
 * Central), plus this repository's `pixgate/webhooks`. Added to the page's copy of the AsyncAPI document
 * only (generated/asyncapi.json stays the bundled source), right after its "Signature" section.
 *
 * The snippets are written once here for every event (verification does not depend on the event); the
 * vector values come from WEBHOOK_TEST_VECTOR, which a test checks against the AsyncAPI description and
 * the `standardwebhooks` package.
 */
import { isObject } from './json.ts';
import type { JsonObject } from './json.ts';

/** The Standard Webhooks test vector the AsyncAPI description publishes. */
export const WEBHOOK_TEST_VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
} as const;

export const VERIFICATION_HEADING = 'Verifying signatures: code';
/** The languages of the section, as its sub-headings name them. */
export const VERIFICATION_LANGUAGES = ['JavaScript / TypeScript', 'Python', 'PHP', 'Java'] as const;

const v = WEBHOOK_TEST_VECTOR;

const SAMPLES: Record<(typeof VERIFICATION_LANGUAGES)[number], { install: string; fence: string; code: string }> = {
  'JavaScript / TypeScript': {
    install: '`npm install standardwebhooks` (or this repository\'s `pixgate/webhooks`, built on it, which also types the event)',
    fence: 'typescript',
    code: `import { Webhook } from 'standardwebhooks';
// or: import { verifyWebhook } from 'pixgate/webhooks'; const event = verifyWebhook(rawBody, req.headers, secret);

// In the request handler: the raw body (string or Buffer, before JSON.parse) and the request headers.
const wh = new Webhook(process.env.PIXGATE_WEBHOOK_SECRET); // whsec_...
try {
  const event = wh.verify(rawBody, req.headers); // signature, and timestamp within 5 minutes
  // deduplicate on event.eventId, queue the work, answer 2xx
} catch (error) {
  // WebhookVerificationError: answer 400 and ignore the request
}

// Check your setup against the test vector (sign() skips the 5-minute check):
const vector = new Webhook('${v.secret}');
console.log(vector.sign('${v.id}', new Date(${v.timestamp} * 1000), '${v.body}')
  === '${v.signature}'); // true`,
  },
  Python: {
    install: '`pip install standardwebhooks`',
    fence: 'python',
    code: `from datetime import datetime, timezone
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

# In the request handler: the raw body (bytes, before json.loads) and the request headers.
wh = Webhook(os.environ["PIXGATE_WEBHOOK_SECRET"])  # whsec_...
try:
    event = wh.verify(raw_body, dict(request.headers))  # signature, and timestamp within 5 minutes
    # deduplicate on event["eventId"], queue the work, answer 2xx
except WebhookVerificationError:
    pass  # answer 400 and ignore the request

# Check your setup against the test vector (sign() skips the 5-minute check):
vector = Webhook("${v.secret}")
print(vector.sign("${v.id}", datetime.fromtimestamp(${v.timestamp}, tz=timezone.utc), '${v.body}')
      == "${v.signature}")  # True`,
  },
  PHP: {
    install: '`composer require standard-webhooks/standard-webhooks`',
    fence: 'php',
    code: `<?php
require 'vendor/autoload.php';

// In the request handler: the raw body and the headers, names in lower case.
$wh = new \\StandardWebhooks\\Webhook(getenv('PIXGATE_WEBHOOK_SECRET')); // whsec_...
$headers = array_change_key_case(getallheaders(), CASE_LOWER);
try {
    $event = $wh->verify(file_get_contents('php://input'), $headers); // signature, and timestamp within 5 minutes
    // deduplicate on $event['eventId'], queue the work, answer 2xx
} catch (\\StandardWebhooks\\Exception\\WebhookVerificationException $e) {
    http_response_code(400); // ignore the request
}

// Check your setup against the test vector (sign() skips the 5-minute check):
$vector = new \\StandardWebhooks\\Webhook('${v.secret}');
var_dump($vector->sign('${v.id}', ${v.timestamp}, '${v.body}')
    === '${v.signature}'); // bool(true)`,
  },
  Java: {
    install: 'Maven `com.standardwebhooks:standardwebhooks`',
    fence: 'java',
    code: `import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.WebhookVerificationException;

// In the request handler: the raw body and the headers (Map<String, List<String>>, or java.net.http.HttpHeaders).
Webhook wh = new Webhook(System.getenv("PIXGATE_WEBHOOK_SECRET")); // whsec_...
try {
    wh.verify(rawBody, headers); // signature, and timestamp within 5 minutes
    // parse rawBody, deduplicate on eventId, queue the work, answer 2xx
} catch (WebhookVerificationException e) {
    // answer 400 and ignore the request
}

// Check your setup against the test vector (sign() skips the 5-minute check):
Webhook vector = new Webhook("${v.secret}");
System.out.println(vector.sign("${v.id}", ${v.timestamp}L, "${v.body.replace(/"/g, '\\"')}")
    .equals("${v.signature}")); // true`,
  },
};

export function verificationMarkdown(): string {
  return [
    `## ${VERIFICATION_HEADING}`,
    '',
    'The Standard Webhooks libraries do the whole check (every `v1,` signature, constant-time comparison,',
    'the 5-minute window) from the `webhook-id`, `webhook-timestamp` and `webhook-signature` headers. Give',
    'them the raw body exactly as received. The last lines of each sample check the test vector above.',
    '',
    ...VERIFICATION_LANGUAGES.flatMap((language) => {
      const sample = SAMPLES[language];
      return [`### ${language}`, '', `Install: ${sample.install}.`, '', `\`\`\`${sample.fence}`, sample.code, '```', ''];
    }),
  ].join('\n');
}

/**
 * A copy of the AsyncAPI document whose description has the verification section right after its
 * "## Signature" section (at the end when there is none).
 */
export function withVerificationSamples(asyncApiDocument: unknown): unknown {
  const copy = structuredClone(asyncApiDocument) as JsonObject;
  const info = copy['info'];
  if (!isObject(info) || typeof info['description'] !== 'string') throw new Error('the AsyncAPI document has no info.description');
  const description = info['description'];
  const signature = description.search(/^## Signature/m);
  const next = signature < 0 ? -1 : description.slice(signature + 1).search(/^## /m);
  const at = next < 0 ? description.length : signature + 1 + next;
  info['description'] = `${description.slice(0, at).trimEnd()}\n\n${verificationMarkdown()}\n${description.slice(at)}`;
  return copy;
}
