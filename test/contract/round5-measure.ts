/**
 * Round 5 measurement: runs the contract checker, through its public API only, against every
 * round-5 server (and the two references), and prints a Markdown table of what it caught.
 *
 *   node test/contract/round5-measure.ts > round5.md
 */
import { resolve } from 'node:path';
import { judgeAt, runContract, TargetUnusable } from '../../src/contract/run-contract.ts';
import { loadSpec } from '../../src/spec/load-spec.ts';
import { ROUND5_STOCK, ROUND5_STOCK_LISTED } from './independent/broken-round5.ts';
import { startReferenceServer } from './independent/reference-server.ts';
import { ROUND5_WAREHOUSES, ROUND5_WAREHOUSES_LISTED } from './warehouses/warehouse-round5.ts';
import { WAREHOUSE_REFERENCE } from './warehouses/warehouse-servers.ts';

const ROOT = resolve(import.meta.dirname, '../..');

type Group =
  'reference' | 'listed stock' | 'listed warehouses' | 'new stock' | 'new warehouses' | 'different';

interface Running {
  readonly url: string;
  readonly tokens: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

/** A running server of either family, its tokens as a plain record of level to token. */
async function running(
  started: Promise<{ url: string; tokens: object; close(): Promise<void> }>,
): Promise<Running> {
  const server = await started;
  const tokens: Record<string, string> = {};
  for (const [level, token] of Object.entries(server.tokens)) {
    if (typeof token === 'string') tokens[level] = token;
  }
  return { url: server.url, tokens, close: () => server.close() };
}

interface Subject {
  readonly name: string;
  readonly family: 'stock' | 'warehouses';
  readonly group: Group;
  readonly kind: string;
  readonly level: string;
  readonly start: () => Promise<Running>;
}

const subjects: Subject[] = [
  {
    name: 'stock reference',
    family: 'stock',
    group: 'reference',
    kind: 'reference',
    level: '-',
    start: () => running(startReferenceServer()),
  },
  ...ROUND5_STOCK.map((spec, index): Subject => ({
    name: spec.name,
    family: 'stock',
    group:
      spec.kind === 'different'
        ? 'different'
        : index < ROUND5_STOCK_LISTED
          ? 'listed stock'
          : 'new stock',
    kind: spec.kind,
    level: spec.level,
    start: () =>
      startReferenceServer(typeof spec.options === 'function' ? spec.options() : spec.options),
  })),
  {
    name: 'warehouses reference',
    family: 'warehouses',
    group: 'reference',
    kind: 'reference',
    level: '-',
    start: () => running(WAREHOUSE_REFERENCE.start()),
  },
  ...ROUND5_WAREHOUSES.map((server, index): Subject => ({
    name: server.name,
    family: 'warehouses',
    group:
      server.kind === 'different'
        ? 'different'
        : index < ROUND5_WAREHOUSES_LISTED
          ? 'listed warehouses'
          : 'new warehouses',
    kind: server.kind,
    level: server.level,
    start: () => running(server.start()),
  })),
];

interface Row {
  readonly subject: Subject;
  readonly caughtInterface: boolean;
  readonly caughtStandIn: boolean;
  readonly failed: readonly string[];
  /** The checker refused to check the target (TargetUnusable): flagged, but no result. */
  readonly refused?: string;
  readonly error?: string;
}

const specs = {
  stock: await loadSpec(resolve(ROOT, 'spec/openapi.yaml')),
  warehouses: await loadSpec(resolve(ROOT, 'examples/warehouses/openapi.yaml')),
};

function failedIds(report: { results: readonly { id: string; outcome: { kind: string } }[] }) {
  return report.results.filter((r) => r.outcome.kind === 'failed').map((r) => r.id);
}

async function measure(subject: Subject): Promise<Row> {
  const server = await subject.start();
  try {
    const report = await runContract({
      baseUrl: server.url,
      tokens: server.tokens,
      spec: specs[subject.family],
      level: 'stand-in',
      seed: 11,
      runs: 30,
      timeoutMs: 5000,
      concurrency: 4,
    });
    const standIn = failedIds(report);
    const atInterface = failedIds(judgeAt(report, 'interface'));
    return {
      subject,
      caughtInterface: atInterface.length > 0,
      caughtStandIn: standIn.length > 0,
      failed: standIn,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const outcome = error instanceof TargetUnusable ? { refused: message } : { error: message };
    return { subject, caughtInterface: false, caughtStandIn: false, failed: [], ...outcome };
  } finally {
    await server.close();
  }
}

const rows: Row[] = [];
for (const subject of subjects) {
  rows.push(await measure(subject));
  process.stderr.write(`${rows.length}/${subjects.length} ${subject.name}\n`);
}

const yes = (value: boolean): string => (value ? 'yes' : 'no');
const cell = (text: string): string => text.replaceAll('|', '\\|');

const lines: string[] = [
  '| server | family | group | kind | level | caught (interface) | caught (stand-in) | failed checks |',
  '|---|---|---|---|---|---|---|---|',
];
for (const row of rows) {
  const s = row.subject;
  const failed =
    row.error !== undefined
      ? `ERROR: ${row.error}`
      : row.refused !== undefined
        ? `REFUSED: ${row.refused}`
        : row.failed.join(', ');
  lines.push(
    `| ${cell(s.name)} | ${s.family} | ${s.group} | ${s.kind} | ${s.level} | ` +
      `${yes(row.caughtInterface)} | ${yes(row.caughtStandIn)} | ${cell(failed)} |`,
  );
}

lines.push('', '## Totals', '');
lines.push(
  '| group | servers | caught (interface) | caught (stand-in) | refused to check | expectation met |',
);
lines.push('|---|---|---|---|---|---|');
const groups: readonly Group[] = [
  'reference',
  'listed stock',
  'listed warehouses',
  'new stock',
  'new warehouses',
  'different',
];
for (const group of groups) {
  const members = rows.filter((r) => r.subject.group === group);
  const atInterface = members.filter((r) => r.caughtInterface).length;
  const atStandIn = members.filter((r) => r.caughtStandIn).length;
  // Broken servers: caught at their own level. References: nothing failed at either level.
  // Different servers: nothing failed at the interface level.
  const refused = members.filter((r) => r.refused !== undefined).length;
  const met = members.filter((r) => {
    if (r.error !== undefined) return false;
    // A refusal stops the run with a message and exit status 1: a broken server is flagged.
    if (r.refused !== undefined) return r.subject.kind === 'broken';
    if (group === 'reference') return !r.caughtStandIn && !r.caughtInterface;
    if (group === 'different') return !r.caughtInterface;
    return r.subject.level === 'interface' ? r.caughtInterface : r.caughtStandIn;
  }).length;
  lines.push(
    `| ${group} | ${members.length} | ${atInterface} | ${atStandIn} | ${refused} | ` +
      `${met}/${members.length} |`,
  );
}
lines.push(
  '',
  'Expectation: a broken server is caught at its own level (interface-level faults after ' +
    "judgeAt(report, 'interface'), stand-in faults at the stand-in level), or the checker " +
    'refuses to check it (TargetUnusable); a different server and a reference fail nothing at ' +
    'the interface level (references: nothing at either).',
);

process.stdout.write(`${lines.join('\n')}\n`);
