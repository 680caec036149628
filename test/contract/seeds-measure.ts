/**
 * Every correct server written apart from the checker (the references, and the variants that
 * decide an open point otherwise), judged over several seeds: prints each one that fails a level
 * it must pass: the stock reference both levels, every other the interface level.
 *
 *   node test/contract/seeds-measure.ts [seeds, default 1,2,3,4,5]
 */
import { judgeAt } from '../../src/contract/run-contract.ts';
import { checkServer, FAMILIES } from './families.ts';

const seeds = (process.argv[2] ?? '1,2,3,4,5').split(',').map(Number);
const failedIds = (report: { results: readonly { id: string; outcome: { kind: string } }[] }) =>
  report.results.filter((r) => r.outcome.kind === 'failed').map((r) => r.id);

let runs = 0;
let wrong = 0;
for (const { family, spec, servers } of FAMILIES) {
  const loaded = await spec();
  for (const server of servers.filter((one) => one.kind !== 'broken')) {
    for (const seed of seeds) {
      try {
        const report = await checkServer(server, loaded, seed);
        runs += 1;
        // The stock reference decides as PRODUCT.md does; a team's reference and the variants
        // decide their own realm, problem types and the like (each family's tests pin which
        // differences each shows at the stand-in level).
        const bothLevels = server.kind === 'reference' && family === 'stock';
        const failed = failedIds(judgeAt(report, bothLevels ? 'stand-in' : 'interface'));
        if (failed.length > 0) {
          wrong += 1;
          console.log(`${family} ${server.name} seed ${String(seed)}: ${failed.join(' ')}`);
        }
      } catch (error) {
        wrong += 1;
        console.log(`${family} ${server.name} seed ${String(seed)}: ${String(error)}`);
      }
    }
  }
}
console.log(`${String(runs)} runs of correct servers, ${String(wrong)} with a failure`);
