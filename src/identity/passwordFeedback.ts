import { translations as packaged } from '@zxcvbn-ts/language-pt-br';

/**
 * The password estimator's hints in the Portuguese people expect (issue 38, defect 9: the package's own
 * read "Senha não deve haver nenhum dado pessoal ou relacionado."). Every key of the package is here, so
 * none falls back to its text; each one a sentence that says what to do, in the form's voice.
 */
export const PASSWORD_FEEDBACK: typeof packaged = {
  ...packaged,
  warnings: {
    straightRow: 'Letras em sequência no teclado são fáceis de adivinhar.',
    keyPattern: 'Padrões curtos de teclado são fáceis de adivinhar.',
    simpleRepeat: 'Caracteres repetidos, como “aaa”, são fáceis de adivinhar.',
    extendedRepeat: 'Sequências repetidas, como “abcabcabc”, são fáceis de adivinhar.',
    sequences: 'Sequências comuns, como “abc” ou “123”, são fáceis de adivinhar.',
    recentYears: 'Anos recentes são fáceis de adivinhar.',
    dates: 'Datas são fáceis de adivinhar.',
    topTen: 'Esta é uma das senhas mais usadas.',
    topHundred: 'Esta é uma senha muito usada.',
    common: 'Esta é uma senha comum.',
    similarToCommon: 'Esta senha é parecida com uma senha comum.',
    wordByItself: 'Uma palavra sozinha é fácil de adivinhar.',
    namesByThemselves: 'Nomes e sobrenomes sozinhos são fáceis de adivinhar.',
    commonNames: 'Nomes e sobrenomes comuns são fáceis de adivinhar.',
    userInputs: 'Não use na senha o seu nome, o seu e-mail, o nome da empresa nem o nome PixGate.',
    pwned: 'Esta senha já apareceu em vazamentos de dados na internet.',
  },
  suggestions: {
    l33t: 'Trocar letras por símbolos parecidos, como “@” por “a”, não a torna mais segura.',
    reverseWords: 'Palavras comuns escritas de trás para frente também são fáceis de adivinhar.',
    allUppercase: 'Use algumas letras maiúsculas, não todas.',
    capitalization: 'Use maiúsculas além da primeira letra.',
    dates: 'Evite datas e anos ligados a você.',
    recentYears: 'Evite anos recentes.',
    associatedYears: 'Evite anos ligados a você.',
    sequences: 'Evite sequências comuns de caracteres.',
    repeated: 'Evite repetir palavras e caracteres.',
    longerKeyboardPattern: 'Use padrões de teclado mais longos, mudando de direção várias vezes.',
    anotherWord: 'Acrescente mais palavras, das menos comuns.',
    useWords: 'Use várias palavras, mas não frases conhecidas.',
    noNeed: 'Não é preciso usar símbolos, números ou maiúsculas: uma frase longa basta.',
    pwned: 'Se você usa esta senha em outro lugar, troque-a lá também.',
  },
};
