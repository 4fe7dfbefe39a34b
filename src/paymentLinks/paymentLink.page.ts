/**
 * The payment link's page (`/pay/{linkId}`), rendered on the server: no framework, one inline style and one
 * inline script, each allowed by its SHA-256 in the page's Content-Security-Policy (nothing else runs, no
 * other origin is reached). pt-BR, made for a 375 px phone first; the status is an aria-live region the
 * script updates from `/pay/{linkId}/status` every 2.5 s, so the page turns to "Pago" without a reload.
 * What the payer sees of the merchant is its legal name only.
 */
import { createHash } from 'node:crypto';
import { formatBrl } from '../messages/merchant.ts';

/** Polled every 2.5 s: a payment shows within 3 s of its confirmation, at about 24 small requests a minute. */
export const STATUS_POLL_MS = 2500;

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f4f5f7}
main{max-width:28rem;margin:0 auto;padding:1rem}
.card{background:#fff;border-radius:12px;padding:1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
.merchant{margin:0;font-size:.95rem;color:#4a4a4a}
h1{margin:.25rem 0 0;font-size:2rem;line-height:1.2}
.description{margin:.5rem 0 1rem;overflow-wrap:anywhere}
.qr{display:block;width:100%;max-width:16rem;margin:0 auto}
.qr svg{display:block;width:100%;height:auto}
label{display:block;margin-top:1rem;font-weight:600}
textarea{width:100%;margin-top:.25rem;padding:.5rem;font:.8rem/1.4 ui-monospace,monospace;border:1px solid #8a8a8a;border-radius:8px;resize:none;overflow-wrap:anywhere}
button{display:block;width:100%;min-height:3rem;margin-top:.75rem;border:0;border-radius:8px;background:#0b5cad;color:#fff;font:600 1rem system-ui,sans-serif;cursor:pointer}
button:focus-visible,textarea:focus-visible{outline:3px solid #f0a500;outline-offset:2px}
.status{margin:1rem 0 0;padding:.75rem;border-radius:8px;background:#eef3fb;font-weight:600}
.paid .status{background:#e3f6e8;color:#0f5d25;font-size:1.25rem;text-align:center}
.steps{margin:1rem 0 0;padding-left:1.25rem;font-size:.95rem;color:#4a4a4a}
footer{margin-top:1rem;font-size:.8rem;color:#5a5a5a;text-align:center}
`.trim();

const SCRIPT = `
(function () {
  var root = document.getElementById('pagamento');
  var link = root.getAttribute('data-link');
  var charge = root.getAttribute('data-charge');
  var status = document.getElementById('status');
  var button = document.getElementById('copiar');
  var code = document.getElementById('codigo');
  function copied() { button.textContent = 'Código copiado'; }
  function fallback() { code.focus(); code.select(); try { if (document.execCommand('copy')) copied(); } catch (e) {} }
  button.addEventListener('click', function () {
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(code.value).then(copied, fallback);
    else fallback();
  });
  var timer = setInterval(poll, ${STATUS_POLL_MS});
  function poll() {
    fetch('/pay/' + link + '/status?charge=' + charge, { cache: 'no-store' })
      .then(function (answer) { return answer.ok ? answer.json() : null; })
      .then(function (body) {
        if (!body) return;
        if (body.status === 'paid') {
          clearInterval(timer);
          root.className = 'card paid';
          document.getElementById('pix').hidden = true;
          status.textContent = 'Pago! Pagamento recebido.';
          document.title = 'Pago — ' + document.title;
        } else if (body.status === 'expired') {
          clearInterval(timer);
          document.getElementById('pix').hidden = true;
          status.textContent = 'Este Pix expirou. Recarregue a página para gerar outro.';
        }
      })
      .catch(function () {});
  }
})();
`.trim();

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * What the page may do: its own inline style and script (by hash), fetch its status from its own origin.
 * No framing, no forms, no base, no plugins.
 */
export const PAGE_POLICY = [
  "default-src 'none'",
  `script-src ${sha256(SCRIPT)}`,
  `style-src ${sha256(STYLE)}`,
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function layout(title: string, body: string, script: boolean): string {
  return `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
<footer>Pagamento processado por PixGate</footer>
</main>${script ? `\n<script>${SCRIPT}</script>` : ''}
</body>
</html>
`;
}

export interface PayView {
  linkId: string;
  transactionId: string;
  legalName: string;
  amountCents: number;
  description: string;
  pixPayload: string;
  /** The QR code of `pixPayload` as SVG (from the `qrcode` library: no text of the merchant's in it). */
  qrSvg: string;
}

/** An active link's page: the charge to pay. */
export function payPage(view: PayView): string {
  const amount = formatBrl(view.amountCents);
  return layout(
    `Pagar ${amount} — ${view.legalName}`,
    `<section id="pagamento" class="card" data-link="${escapeHtml(view.linkId)}" data-charge="${escapeHtml(view.transactionId)}" aria-labelledby="valor">
<p class="merchant">Pagamento para <strong>${escapeHtml(view.legalName)}</strong></p>
<h1 id="valor">${escapeHtml(amount)}</h1>
<p class="description">${escapeHtml(view.description)}</p>
<p id="status" class="status" role="status" aria-live="polite">Aguardando pagamento</p>
<div id="pix">
<h2 class="merchant">Pague com Pix</h2>
<div class="qr" role="img" aria-label="QR code do Pix de ${escapeHtml(amount)}">${view.qrSvg}</div>
<label for="codigo">Pix copia e cola</label>
<textarea id="codigo" rows="4" readonly>${escapeHtml(view.pixPayload)}</textarea>
<button id="copiar" type="button">Copiar código</button>
<ol class="steps">
<li>Abra o app do seu banco e escolha Pix.</li>
<li>Leia o QR code ou cole o código copiado.</li>
<li>Confirme o pagamento. Esta página mostra "Pago" sozinha.</li>
</ol>
</div>
</section>`,
    true,
  );
}

/** A page that takes no payment: the link is unknown, off, expired or used, or no charge could be made now. */
export function noticePage(title: string, text: string): string {
  return layout(title, `<section class="card" aria-labelledby="aviso">\n<h1 id="aviso">${escapeHtml(title)}</h1>\n<p>${escapeHtml(text)}</p>\n</section>`, false);
}
