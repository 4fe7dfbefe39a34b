/**
 * The payer's side of payment links on the merchant listener, outside /v1 and without an API key:
 * GET /pay/{linkId} (the page) and GET /pay/{linkId}/status?charge=tx_… (what the page polls).
 */
import QRCode from 'qrcode';
import { Router, type Request, type Response } from 'express';
import { findAccount } from '../accounts/account.repository.ts';
import { ChargeRateLimited, ProviderUnavailable } from '../charges/charge.errors.ts';
import { setOperation } from '../http/routeGuard.ts';
import type { Deps } from '../platform/deps.ts';
import { isPrefixedId, isTransactionId } from '../primitives/ids.ts';
import { chargeForPayer, LINK_CHARGE_LIFETIME_MS } from './paymentLink.charge.ts';
import { noticePage, PAGE_POLICY, payPage } from './paymentLink.page.ts';
import { findLinkCharge, findPaymentLink, SETTLED_STATUSES } from './paymentLink.repository.ts';
import { linkStatus, statsOf } from './paymentLink.service.ts';

/** The cookie that keeps a reusable link's charge for this browser, scoped to the link's path. */
const CHARGE_COOKIE = 'pixgate_charge';

function pageHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', PAGE_POLICY);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Robots-Tag', 'noindex, nofollow');
  // The page holds a charge of this payer's: never kept by a shared cache, never shown from history stale.
  res.setHeader('Cache-Control', 'no-store');
}

function notice(res: Response, status: number, title: string, text: string): void {
  res.status(status).type('text/html; charset=utf-8').send(noticePage(title, text));
}

function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

const UNAVAILABLE: [number, string, string] = [404, 'Link não encontrado', 'Este link de pagamento não existe. Confira o endereço com quem o enviou.'];
const ENDED: Record<'inactive' | 'expired' | 'used', [number, string, string]> = {
  inactive: [410, 'Link desativado', 'Este link de pagamento foi desativado por quem o criou. Nenhum pagamento é aceito por ele.'],
  expired: [410, 'Link expirado', 'Este link de pagamento expirou. Peça um novo link a quem o enviou.'],
  used: [410, 'Link já pago', 'Este link de pagamento já foi pago e não aceita outro pagamento.'],
};

export function paymentLinkPages(deps: Deps): Router {
  const router = Router();

  router.get('/pay/:linkId', async (req, res, next) => {
    try {
      setOperation(res, 'paymentLinkPage');
      pageHeaders(res);
      const linkId = req.params.linkId;
      const link = isPrefixedId('pl', linkId) ? await findPaymentLink(deps.db, undefined, linkId) : undefined;
      const account = link === undefined ? undefined : await findAccount(deps.db, link.account_id);
      // An account that may not take charges now (KYC, blocked) shows the payer no reason: the link is unavailable.
      if (!link || !account || account.kyc_status !== 'approved' || account.blocked) return notice(res, ...UNAVAILABLE);
      const status = linkStatus(link, await statsOf(deps, link), deps.clock.now());
      if (status !== 'active') return notice(res, ...ENDED[status]);
      let charge;
      try {
        charge = await chargeForPayer(deps, account, link, { remembered: link.reusable ? cookieOf(req, CHARGE_COOKIE) : undefined, address: req.ip ?? '' });
      } catch (error) {
        if (error instanceof ChargeRateLimited) return notice(res, 429, 'Tente em alguns minutos', 'Muitos pagamentos foram iniciados agora. Tente novamente em alguns minutos.');
        if (error instanceof ProviderUnavailable) return notice(res, 503, 'Tente novamente', 'Não foi possível gerar o Pix agora. Tente novamente em instantes.');
        throw error;
      }
      if (link.reusable) {
        const secure = deps.config.nodeEnv === 'production' ? '; Secure' : '';
        res.setHeader('Set-Cookie', `${CHARGE_COOKIE}=${charge.id}; Path=/pay/${link.id}; Max-Age=${LINK_CHARGE_LIFETIME_MS / 1000}; HttpOnly; SameSite=Lax${secure}`);
      }
      if ((SETTLED_STATUSES as readonly string[]).includes(charge.status)) return notice(res, 200, 'Pago', 'Pagamento recebido. Obrigado!');
      const pixPayload = charge.pix_payload ?? '';
      const qrSvg = await QRCode.toString(pixPayload, { errorCorrectionLevel: 'M', margin: 4, type: 'svg' });
      res
        .status(200)
        .type('text/html; charset=utf-8')
        .send(
          payPage({
            linkId: link.id,
            transactionId: charge.id,
            legalName: account.legal_name,
            amountCents: Number(charge.amount_cents),
            description: link.description,
            pixPayload,
            qrSvg,
          }),
        );
    } catch (error) {
      next(error);
    }
  });

  router.get('/pay/:linkId/status', async (req, res, next) => {
    try {
      setOperation(res, 'paymentLinkStatus');
      res.setHeader('Cache-Control', 'no-store');
      const linkId = req.params.linkId;
      const chargeId = req.query.charge;
      const charge = isPrefixedId('pl', linkId) && isTransactionId(chargeId) ? await findLinkCharge(deps.db, linkId, chargeId) : undefined;
      if (!charge) return res.status(404).json({ error: 'Cobrança não encontrada.' });
      // What the payer needs: paid (refunded later or not), still payable, or over.
      const status = (SETTLED_STATUSES as readonly string[]).includes(charge.status) ? 'paid' : charge.status === 'pending' ? 'pending' : 'expired';
      res.json({ status });
    } catch (error) {
      next(error);
    }
  });

  return router;
}
