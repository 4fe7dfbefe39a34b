/**
 * A User-Agent header summarised as a person recognises their device: the browser with its major version
 * and the operating system. Only the common browsers are told apart; anything else is "Desconhecido"
 * (the full header stays available beside it). Order matters: Edge and Opera also say "Chrome", Chrome
 * also says "Safari", and Android also says "Linux".
 */
const UNKNOWN = 'Desconhecido';

const BROWSERS: readonly [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/OPR\/(\d+)/, 'Opera'],
  [/SamsungBrowser\/(\d+)/, 'Samsung Internet'],
  [/(?:Firefox|FxiOS)\/(\d+)/, 'Firefox'],
  [/(?:Chrome|CriOS|Chromium)\/(\d+)/, 'Chrome'],
  [/Version\/(\d+)[^ ]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/Windows/, 'Windows'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

export function summariseUserAgent(userAgent: string | null | undefined): { browser: string; os: string } {
  if (!userAgent) return { browser: UNKNOWN, os: UNKNOWN };
  let browser = UNKNOWN;
  for (const [pattern, name] of BROWSERS) {
    const match = pattern.exec(userAgent);
    if (match) {
      browser = match[1] ? `${name} ${match[1]}` : name;
      break;
    }
  }
  if (browser === UNKNOWN && /HeadlessChrome\/(\d+)/.test(userAgent)) browser = `Chrome ${/HeadlessChrome\/(\d+)/.exec(userAgent)?.[1] ?? ''}`.trim();
  const os = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? UNKNOWN;
  return { browser, os };
}
