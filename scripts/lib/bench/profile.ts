/**
 * Reads a V8 CPU profile (`node --cpu-prof`) and names where the time went: the hottest functions by self
 * time (with file:line, repository-relative), the project's own functions by inclusive time (what a
 * request spends inside each of them, callees included), and self time per package.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { relativeToRoot } from '../paths.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface HotFunction {
  name: string;
  /** repository-relative path:line (1-based), or a V8 pseudo-frame such as (garbage collector). */
  where: string;
  ms: number;
  pct: number;
}

export interface ProfileSummary {
  file: string;
  totalMs: number;
  /** Time the process spent doing nothing (waiting for I/O: the database, the network). */
  idlePct: number;
  gcPct: number;
  topSelf: HotFunction[];
  topProjectInclusive: HotFunction[];
  byPackage: { name: string; ms: number; pct: number }[];
}

function location(node: ProfileNode): string {
  const { url, lineNumber } = node.callFrame;
  if (!url) return '';
  let path = url;
  try {
    path = url.startsWith('file:') ? relativeToRoot(fileURLToPath(url)) : url;
  } catch {
    // Keep the URL as it is.
  }
  return `${path}:${lineNumber + 1}`;
}

function keyOf(node: ProfileNode): string {
  return `${node.callFrame.functionName || '(anonymous)'}@${location(node)}`;
}

function packageOf(node: ProfileNode): string {
  const url = node.callFrame.url;
  if (!url) return node.callFrame.functionName || '(native)';
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match?.[1]) return match[1];
  if (url.startsWith('node:')) return 'node: (runtime)';
  if (url.includes('/src/')) return 'src/ (PixGate)';
  return 'other';
}

const round1 = (value: number) => Math.round(value * 10) / 10;

export function summarizeProfile(file: string, top = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const selfMs = new Map<string, number>();
  const inclusiveMs = new Map<string, number>();
  const packageMs = new Map<string, number>();
  let totalMs = 0;
  let idleMs = 0;
  let gcMs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const node = byId.get(profile.samples[i]!);
    if (!node) continue;
    totalMs += ms;
    const name = node.callFrame.functionName;
    if (name === '(idle)') {
      idleMs += ms;
      continue;
    }
    if (name === '(garbage collector)') gcMs += ms;
    const key = keyOf(node);
    selfMs.set(key, (selfMs.get(key) ?? 0) + ms);
    const pkg = packageOf(node);
    packageMs.set(pkg, (packageMs.get(pkg) ?? 0) + ms);
    // Inclusive time of the project's functions: each function once per sample, however deep it recurses.
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)!;
      if (!frame.callFrame.url.includes('/src/') || frame.callFrame.url.includes('node_modules')) continue;
      const frameKey = keyOf(frame);
      if (seen.has(frameKey)) continue;
      seen.add(frameKey);
      inclusiveMs.set(frameKey, (inclusiveMs.get(frameKey) ?? 0) + ms);
    }
  }
  const busyMs = totalMs - idleMs;
  const rank = (map: Map<string, number>): HotFunction[] =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([key, ms]) => {
        const at = key.lastIndexOf('@');
        return { name: key.slice(0, at), where: key.slice(at + 1), ms: Math.round(ms), pct: round1((ms / busyMs) * 100) };
      });
  return {
    file: relativeToRoot(file),
    totalMs: Math.round(totalMs),
    idlePct: round1((idleMs / totalMs) * 100),
    gcPct: round1((gcMs / busyMs) * 100),
    topSelf: rank(selfMs),
    topProjectInclusive: rank(inclusiveMs),
    byPackage: [...packageMs]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15)
      .map(([name, ms]) => ({ name, ms: Math.round(ms), pct: round1((ms / busyMs) * 100) })),
  };
}

export function renderProfile(title: string, summary: ProfileSummary, top = 15): string {
  const lines = [
    `${title}: ${summary.file}`,
    `  ${Math.round(summary.totalMs)} ms profiled, idle ${summary.idlePct} % (waiting on I/O), GC ${summary.gcPct} % of busy time`,
    '  self time (busy %)   function                                  where',
  ];
  for (const hot of summary.topSelf.slice(0, top)) {
    lines.push(`  ${String(hot.pct).padStart(6)} %  ${String(hot.ms).padStart(7)} ms  ${hot.name.slice(0, 40).padEnd(40)}  ${hot.where}`);
  }
  lines.push('  PixGate functions, inclusive time (busy %):');
  for (const hot of summary.topProjectInclusive.slice(0, 10)) {
    lines.push(`  ${String(hot.pct).padStart(6)} %  ${String(hot.ms).padStart(7)} ms  ${hot.name.slice(0, 40).padEnd(40)}  ${hot.where}`);
  }
  lines.push(`  by package: ${summary.byPackage.map((entry) => `${entry.name} ${entry.pct} %`).join(', ')}`);
  lines.push(
    '  (writev, writeBuffer, writeUtf8String are socket writes to Postgres and to clients; V8 samples wall time, so their',
    '   share includes time spent preempted inside the call on a busy machine: compare with the kernel % of the case.)',
  );
  return lines.join('\n');
}
