/** The e-mails PixGate sends to dashboard users, in Portuguese (pt-BR). Links are absolute. */

const SIGNATURE = '\n\n—\nEquipe PixGate\nEsta é uma mensagem automática; não responda.';

export const mailTexts = {
  verifyEmail: (name: string, link: string) => ({
    subject: 'Confirme seu e-mail no PixGate',
    text:
      `Olá, ${name}.\n\nPara confirmar seu e-mail e concluir o cadastro no painel PixGate, abra o link abaixo ` +
      `(válido por 48 horas):\n\n${link}\n\nSe você não se cadastrou no PixGate, ignore esta mensagem.${SIGNATURE}`,
  }),
  alreadyRegistered: (link: string) => ({
    subject: 'Você já tem cadastro no PixGate',
    text:
      `Alguém (talvez você) tentou criar uma conta no PixGate com este e-mail, que já está cadastrado.\n\n` +
      `Para entrar, use sua senha. Se a esqueceu, redefina-a em:\n\n${link}${SIGNATURE}`,
  }),
  resetPassword: (name: string, link: string) => ({
    subject: 'Redefinição de senha do PixGate',
    text:
      `Olá, ${name}.\n\nRecebemos um pedido para redefinir sua senha do painel PixGate. Abra o link abaixo ` +
      `(válido por 1 hora) e escolha uma nova senha:\n\n${link}\n\nSe não foi você, ignore esta mensagem: ` +
      `sua senha continua a mesma.${SIGNATURE}`,
  }),
  invite: (inviter: string, company: string, link: string) => ({
    subject: `Convite para o painel PixGate de ${company}`,
    text:
      `${inviter} convidou você para acessar o painel PixGate de ${company}.\n\nPara aceitar, abra o link abaixo ` +
      `(válido por 7 dias) e escolha sua senha:\n\n${link}${SIGNATURE}`,
  }),
  // An invitation to an e-mail that already has a user (of another account, or removed): the inviter is
  // answered as for any invitation; the person learns here why there is no link.
  cnpjAlreadyRegistered: (name: string) => ({
    subject: 'Sobre o seu cadastro no PixGate',
    text:
      `Olá, ${name}.\n\nRecebemos um pedido de cadastro com este e-mail para um CNPJ que já tem uma conta no PixGate. ` +
      `Cada empresa (CNPJ) tem uma conta só, com vários usuários: para acessá-la, peça um convite a quem a administra ` +
      `(painel, Usuários, Convidar). Nenhuma conta nova foi criada.\n\nSe você não fez este pedido, ignore esta mensagem.${SIGNATURE}`,
  }),
  cnpjSignUpAttempt: (maskedCnpj: string, applicantEmail: string, link: string) => ({
    subject: 'Pedido de cadastro com o CNPJ da sua empresa',
    text:
      `Alguém pediu um cadastro no PixGate com o CNPJ ${maskedCnpj}, que já é da sua conta, usando o e-mail ` +
      `${applicantEmail}. Nenhuma conta nova foi criada.\n\nSe é alguém da sua equipe, convide essa pessoa ` +
      `no painel (Usuários, Convidar):\n\n${link}\n\nSe você não reconhece o pedido, nada muda na sua conta; ` +
      `se quiser, fale com o suporte.${SIGNATURE}`,
  }),
  inviteAlreadyRegistered: (inviter: string, company: string, link: string) => ({
    subject: `Convite para o painel PixGate de ${company}`,
    text:
      `${inviter} convidou você para acessar o painel PixGate de ${company}, mas este e-mail já está cadastrado ` +
      `no PixGate, e cada e-mail dá acesso a uma conta só.\n\nPara participar, peça um convite para outro e-mail seu. ` +
      `Para entrar com este e-mail, use sua senha; se a esqueceu, redefina-a em:\n\n${link}\n\n` +
      `Se você não conhece quem convidou, ignore esta mensagem.${SIGNATURE}`,
  }),
  // Sign-in back-off (issue 38, defect 3): the user is told when their e-mail collects failed sign-ins.
  failedSignIns: (name: string, failures: number, address: string, resetLink: string) => ({
    subject: 'Tentativas de acesso à sua conta PixGate',
    text:
      `Olá, ${name}.\n\nHouve ${failures} tentativas de entrar no painel PixGate com o seu e-mail e uma senha errada, ` +
      `a última a partir do endereço ${address}. Ninguém entrou: a senha estava errada.\n\n` +
      `Sua conta não foi bloqueada: no navegador em que você costuma entrar, o acesso continua normal. Em outros ` +
      `navegadores, novas tentativas esperam alguns minutos entre si, para atrasar quem tenta adivinhar a senha.\n\n` +
      `Se não foi você: se esta senha também é usada em outro serviço, troque-a (painel, Segurança, Trocar a senha, ` +
      `ou redefina-a em ${resetLink}) e ative a verificação em duas etapas. Se foi você e esqueceu a senha, redefina-a ` +
      `pelo mesmo link; a redefinição também libera o navegador em que for feita.${SIGNATURE}`,
  }),
} as const;
