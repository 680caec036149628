/**
 * @module The query engine alone, in process: what a request's query costs without HTTP.
 *
 * Each workload runs its queries (select, then one page) one after another and times each; the
 * rows give the mean and the 99th percentile in µs. Run before the HTTP load of the same size,
 * it shows how much of a request the query is.
 */
import { DEFAULT_COMPATIBILITY } from '../src/compatibility/compatibility.ts';
import type { QueryEngine } from '../src/query/engine.ts';
import { paginate } from '../src/query/paginate.ts';
import type { Condition } from '../src/query/query.ts';
import { readDeclarations } from '../src/resources/declarations.ts';
import { loadDataset, loadPlanOf } from '../src/scenarios/load-scenarios.ts';
import { loadSpec } from '../src/spec/load-spec.ts';
import { seededRandom } from '../src/util/seeded-random.ts';
import { coldNeedle, sampleNames, warmNeedles } from './needles.ts';

export interface QueryRow {
  readonly size: number;
  readonly workload: string;
  readonly meanMicros: number;
  readonly p99Micros: number;
}

const QUERIES = 20_000;

/** The shipped spec's statuses, and its filters of /v1/stock as the engine's conditions. */
const STOCK_STATUSES = ['available', 'incoming', 'on_request', 'out_of_stock'] as const;
interface ProductFilter {
  readonly name?: string;
  readonly id?: number;
  readonly status?: string;
}
function conditionsOf(filter: ProductFilter): Condition[] {
  const conditions: Condition[] = [];
  if (filter.name !== undefined)
    conditions.push({ field: 'name', match: 'contains', value: filter.name });
  if (filter.id !== undefined) conditions.push({ field: 'id', match: 'exact', value: filter.id });
  if (filter.status !== undefined) {
    conditions.push({ field: 'status', match: 'exact', value: filter.status });
  }
  return conditions;
}

export async function measureQueryEngine(size: number): Promise<QueryRow[]> {
  const plan = loadPlanOf(readDeclarations(await loadSpec()), DEFAULT_COMPATIBILITY);
  const dataset = await loadDataset({ generate: { count: size, seed: 1 } }, plan);
  const random = seededRandom(11);
  const names = sampleNames(size);
  const warm = warmNeedles(names, random);
  const pages = Math.ceil(size / 10);
  const any = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const workloads: [string, () => [ProductFilter, number]][] = [
    ['single product', () => [{ id: 1 + Math.floor(random() * size) }, 1]],
    ['first page', () => [{}, 1]],
    ['deep page', () => [{}, pages - Math.floor(random() * 50)]],
    ['status filter', () => [{ status: any(STOCK_STATUSES) }, 2]],
    ['name, warm mix', () => [{ name: any(warm) }, 1 + Math.floor(random() * 3)]],
    ['name, cold mix', () => [{ name: coldNeedle(names, random) }, 1 + Math.floor(random() * 3)]],
    ['name + status', () => [{ name: any(warm), status: any(STOCK_STATUSES) }, 1]],
  ];
  const { engine } = dataset.loaded('products');
  return workloads.map(([workload, next]) => ({ size, workload, ...time(engine, next) }));
}

function time(
  engine: QueryEngine,
  next: () => [ProductFilter, number],
): { meanMicros: number; p99Micros: number } {
  const micros = new Float64Array(QUERIES);
  for (let i = 0; i < QUERIES; i++) {
    const [filter, page] = next();
    const started = performance.now();
    paginate(engine.select(conditionsOf(filter)), { start: (page - 1) * 10, limit: 10 });
    micros[i] = (performance.now() - started) * 1000;
  }
  // The first tenth warms the JIT and the caches; it is not counted.
  const counted = micros.subarray(QUERIES / 10).sort();
  const mean = counted.reduce((sum, value) => sum + value, 0) / counted.length;
  return { meanMicros: mean, p99Micros: counted[Math.floor(counted.length * 0.99)] ?? 0 };
}
