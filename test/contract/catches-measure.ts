/**
 * Every broken server written apart from the checker, judged at the stand-in level with one
 * seed: prints the checks each one fails (or that none does), to see which checks catch what.
 *
 *   node test/contract/catches-measure.ts [family,...] [seed, default 11]
 */
import { checkServer, FAMILIES } from './families.ts';

const wanted = process.argv[2]?.split(',');
const seed = Number(process.argv[3] ?? 11);
let missed = 0;
for (const { family, spec, servers } of FAMILIES) {
  if (wanted !== undefined && !wanted.includes(family)) continue;
  const loaded = await spec();
  for (const server of servers.filter((one) => one.kind === 'broken')) {
    try {
      const report = await checkServer(server, loaded, seed);
      const failed = report.results.filter((r) => r.outcome.kind === 'failed').map((r) => r.id);
      if (failed.length === 0) missed += 1;
      console.log(`${family} | ${server.level} | ${server.name} | ${failed.join(' ') || 'MISSED'}`);
    } catch (error) {
      console.log(`${family} | ${server.level} | ${server.name} | refused: ${String(error)}`);
    }
  }
}
console.log(`missed: ${String(missed)}`);
