/**
 * One benchmark case: autocannon (programmatic API) against one operation of one server, a short warm-up
 * first, then the measured run. Both are bounded in time and in number of requests. Latencies are taken
 * from every response (autocannon's own histogram keeps whole milliseconds and only 2xx answers).
 */
import autocannon from 'autocannon';

export interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  /** A body per request (unique externalRef…); called once per request sent. */
  body?: () => string;
  /** Extra headers taken in turn, one set per request (several accounts' API keys). */
  rotateHeaders?: Record<string, string>[];
}

export interface LoadOptions {
  connections: number;
  durationS: number;
  warmupS: number;
  /** Hard bound on the requests of the measured run (the warm-up gets a tenth of it). */
  maxRequests: number;
}

export interface LatencySummary {
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export interface CaseResult {
  /** Answers received in the measured run, any status. */
  requests: number;
  durationS: number;
  /** Answers per second over the measured run. */
  rps: number;
  latencyMs: LatencySummary;
  /** Count per HTTP status. */
  statusCodes: Record<string, number>;
  non2xx: number;
  /** Connection errors and timeouts (no HTTP answer). */
  errors: number;
  timeouts: number;
  warmup: { requests: number; non2xx: number; errors: number };
}

function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

function summarize(latencies: number[]): LatencySummary {
  const sorted = Float64Array.from(latencies).sort();
  const sum = latencies.reduce((total, value) => total + value, 0);
  return {
    mean: round2(sum / Math.max(1, latencies.length)),
    p50: round2(percentile(sorted, 0.5)),
    p90: round2(percentile(sorted, 0.9)),
    p99: round2(percentile(sorted, 0.99)),
    max: round2(sorted.length ? sorted[sorted.length - 1]! : NaN),
  };
}

function toRequests(spec: RequestSpec): autocannon.Request[] {
  const base: autocannon.Request = { method: spec.method, path: spec.path, headers: spec.headers };
  const { body, rotateHeaders } = spec;
  if (!body && !rotateHeaders?.length) return [base];
  let turn = 0;
  return [
    {
      ...base,
      setupRequest: (request) => ({
        ...request,
        ...(body ? { body: body() } : {}),
        ...(rotateHeaders?.length ? { headers: { ...request.headers, ...rotateHeaders[turn++ % rotateHeaders.length] } } : {}),
      }),
    },
  ];
}

function fire(
  url: string,
  spec: RequestSpec,
  connections: number,
  durationS: number,
  maxRequests: number,
  latencies?: number[],
): autocannon.Instance {
  const instance = autocannon({
    url,
    connections,
    duration: durationS,
    // autocannon refuses a bound below the number of connections.
    maxOverallRequests: Math.max(maxRequests, connections),
    timeout: 10,
    requests: toRequests(spec),
  });
  if (latencies) {
    instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTimeMs: number) => {
      latencies.push(responseTimeMs);
    });
  }
  return instance;
}

/** Called when the measured run starts (after the warm-up); what it returns is called when it ends. */
export type Measurement = () => () => void;

export async function runCase(baseUrl: string, spec: RequestSpec, options: LoadOptions, measurement?: Measurement): Promise<CaseResult> {
  const url = `${baseUrl}${spec.path}`;
  const warmup = await fire(url, spec, options.connections, options.warmupS, Math.ceil(options.maxRequests / 10));
  const latencies: number[] = [];
  const measured = measurement?.();
  const result = await fire(url, spec, options.connections, options.durationS, options.maxRequests, latencies);
  measured?.();
  const statusCodes: Record<string, number> = {};
  let answered = 0;
  for (const [code, { count }] of Object.entries(result.statusCodeStats)) {
    statusCodes[code] = Number(count);
    answered += Number(count);
  }
  return {
    requests: answered,
    durationS: result.duration,
    rps: Math.round(answered / result.duration),
    latencyMs: summarize(latencies),
    statusCodes,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    warmup: { requests: warmup.requests.total, non2xx: warmup.non2xx, errors: warmup.errors },
  };
}
