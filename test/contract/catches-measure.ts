/**
 * Every server written apart from the checker, judged with one seed: prints the checks each
 * broken one fails at the level its fault is at (and the stand-in level), that none does, or a
 * correct one that fails. `--json FILE` keeps the table, to see which checks alone catch what.
 *
 *   node test/contract/catches-measure.ts [family,...] [seed, default 11] [--json FILE]
 */
import { writeFileSync } from 'node:fs';
import { judgeAt } from '../../src/contract/run-contract.ts';
import { checkServer, FAMILIES } from './families.ts';

const args = process.argv.slice(2);
const json = args.includes('--json') ? args.splice(args.indexOf('--json'), 2)[1] : undefined;
const wanted = args[0]?.split(',');
const seed = Number(args[1] ?? 11);
const rows: object[] = [];
let [missed, wrong] = [0, 0];
for (const { family, spec, servers } of FAMILIES) {
  if (wanted !== undefined && !wanted.includes(family)) continue;
  const loaded = await spec();
  for (const server of servers) {
    const { name, kind, level } = server;
    try {
      const report = await checkServer(server, loaded, seed);
      const failed = (at: 'interface' | 'stand-in') =>
        judgeAt(report, at)
          .results.filter((r) => r.outcome.kind === 'failed')
          .map((r) => r.id);
      const [atInterface, atStandIn] = [failed('interface'), failed('stand-in')];
      rows.push({ family, name, kind, level, interface: atInterface, standIn: atStandIn });
      if (kind !== 'broken') {
        if (atInterface.length === 0) continue;
        wrong += 1;
        console.log(`${family} | ${kind} | ${name} | CORRECT, FAILED: ${atInterface.join(' ')}`);
        continue;
      }
      const caught = level === 'interface' ? atInterface : atStandIn;
      if (caught.length === 0) missed += 1;
      console.log(`${family} | ${level} | ${name} | ${caught.join(' ') || 'MISSED'}`);
    } catch (error) {
      console.log(`${family} | ${level} | ${name} | refused: ${String(error)}`);
    }
  }
}
if (json !== undefined) writeFileSync(json, JSON.stringify(rows, null, 1));
console.log(`missed: ${String(missed)}; correct servers failed: ${String(wrong)}`);
