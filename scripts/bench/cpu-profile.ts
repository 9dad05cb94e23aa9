/**
 * What a V8 CPU profile (the inspector's `Profiler`, as `.cpuprofile`) says of where the time went: the functions
 * and files with the most samples of their own, and the functions with the most samples under them. The files
 * themselves open in Chrome's DevTools (Performance panel) or any `.cpuprofile` viewer.
 */

export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

// What the profiler sees of the idle event loop and of itself (starting and stopping) is not the worker's.
const NOT_THE_WORKER = new Set(['(idle)', '(root)', '(program)']);
const isProfilerCall = ({ functionName, url }: { functionName: string; url: string }) =>
  functionName === 'post' && url === 'node:inspector';

/** The top `count` functions by self and by total time, and files by self time, as text. */
export function summarizeProfile(profile: CpuProfile, bundleDir: string, count = 12): string {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const where = (url: string) => url.replace(`file://${bundleDir}/`, '').replace(/^file:\/\/.*\/node_modules\//, '');
  const label = (id: number) => {
    const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
    return `${functionName || '(anonymous)'} ${where(url)}${url ? `:${lineNumber + 1}` : ''}`;
  };
  const self = new Map<string, number>();
  const files = new Map<string, number>();
  const total = new Map<string, number>();
  let sampled = 0;
  profile.samples.forEach((id, index) => {
    const micros = profile.timeDeltas[index + 1] ?? 0;
    const name = nodes.get(id)!.callFrame.functionName;
    if (NOT_THE_WORKER.has(name) || isProfilerCall(nodes.get(id)!.callFrame)) return;
    sampled += micros;
    self.set(label(id), (self.get(label(id)) ?? 0) + micros);
    const file = where(nodes.get(id)!.callFrame.url) || name;
    files.set(file, (files.get(file) ?? 0) + micros);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
      const frame = label(at);
      const { functionName, url } = nodes.get(at)!.callFrame;
      if (seen.has(frame) || NOT_THE_WORKER.has(functionName) || url.includes('/scripts/bench/')) continue;
      seen.add(frame);
      total.set(frame, (total.get(frame) ?? 0) + micros);
    }
  });
  const top = (values: Map<string, number>) =>
    [...values]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, micros]) => `  ${((100 * micros) / sampled).toFixed(1).padStart(5)} %  ${name}`)
      .join('\n');
  return [
    `sampled ${(sampled / 1000).toFixed(2)} ms (slowed by the profiler: read the shares, not the times)`,
    'self time, by function:',
    top(self),
    'self time, by file:',
    top(files),
    'total time (self and callees), by function:',
    top(total),
  ].join('\n');
}
