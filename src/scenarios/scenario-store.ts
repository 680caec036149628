/** @module The served data: one immutable dataset per scenario, and which one is active. */
import { DEFAULT_SCENARIO } from '../config/config-schema.ts';
import type { Dataset } from '../dataset/dataset.ts';
import { ProblemError, type ParameterIssue } from '../problems/problem-error.ts';
import { PROBLEMS } from '../problems/problem-types.ts';

export type { Dataset } from '../dataset/dataset.ts';
export { DEFAULT_SCENARIO } from '../config/config-schema.ts';

/** A request's 400: it names a scenario that is not configured, in this parameter. */
export function noSuchScenario(
  scenario: string,
  known: readonly string[],
  where: Pick<ParameterIssue, 'parameter' | 'in'> & { readonly prefix?: string },
): ProblemError {
  return ProblemError.from(PROBLEMS.INVALID_PARAMETERS, `No scenario is named "${scenario}".`, {
    errors: [
      {
        parameter: where.parameter,
        in: where.in,
        message: `${where.prefix ?? ''}must be one of ${known.join(', ')}`,
      },
    ],
  });
}

/** Asked for a scenario that is not configured. */
export class UnknownScenario extends Error {
  readonly scenario: string;
  constructor(scenario: string, known: readonly string[]) {
    super(`unknown scenario "${scenario}" (known: ${known.join(', ')})`);
    this.name = 'UnknownScenario';
    this.scenario = scenario;
  }
}

/**
 * Holds every scenario's dataset. All of it lives in one immutable state object whose
 * reference is swapped whole, so a request that has read a dataset keeps it to its end, and a
 * reload or a switch is seen all at once or not at all.
 */
export interface ScenarioStore {
  readonly active: string;
  readonly names: readonly string[];
  /** The active scenario's data. */
  readonly current: Dataset;
  /** A scenario's data; undefined when there is no such scenario. */
  get(name: string): Dataset | undefined;
  /** Makes a scenario the active one; throws UnknownScenario. */
  activate(name: string): void;
  /** Replaces the active scenario's data. */
  replace(dataset: Dataset): void;
  /** Replaces every dataset at once (a reload); keeps the active name if it still exists. */
  replaceAll(datasets: ReadonlyMap<string, Dataset>): void;
}

interface State {
  readonly active: string;
  readonly datasets: ReadonlyMap<string, Dataset>;
}

export function createScenarioStore(
  initial: ReadonlyMap<string, Dataset> | Dataset,
  active: string = DEFAULT_SCENARIO,
): ScenarioStore {
  const datasets: ReadonlyMap<string, Dataset> =
    initial instanceof Map ? initial : new Map([[DEFAULT_SCENARIO, initial as Dataset]]);
  return storeOver({ state: checked({ active, datasets }) });
}

/**
 * A store whose datasets come once its load ends: a start builds its app meanwhile, and the port
 * opens only once the store is filled, so no request can read it before.
 */
export function storeToFill(active: string = DEFAULT_SCENARIO): {
  readonly store: ScenarioStore;
  readonly fill: (datasets: ReadonlyMap<string, Dataset>) => void;
} {
  const slot: Slot = { state: undefined };
  return {
    store: storeOver(slot),
    fill: (datasets) => {
      slot.state = checked({ active, datasets });
    },
  };
}

/** Where a store keeps its state: empty only until a store to fill is filled. */
interface Slot {
  state: State | undefined;
}

function storeOver(slot: Slot): ScenarioStore {
  const now = (): State => {
    if (slot.state === undefined) throw new Error('the scenarios are still loading');
    return slot.state;
  };
  return {
    get active() {
      return now().active;
    },
    get names() {
      return [...now().datasets.keys()];
    },
    get current() {
      const state = now();
      return state.datasets.get(state.active) as Dataset;
    },
    get: (name) => now().datasets.get(name),
    activate(name) {
      slot.state = checked({ ...now(), active: name });
    },
    replace(dataset) {
      const state = now();
      slot.state = { ...state, datasets: new Map([...state.datasets, [state.active, dataset]]) };
    },
    replaceAll(next) {
      const state = now();
      slot.state = checked({
        active: next.has(state.active) ? state.active : DEFAULT_SCENARIO,
        datasets: next,
      });
    },
  };
}

function checked(state: State): State {
  if (!state.datasets.has(state.active))
    throw new UnknownScenario(state.active, [...state.datasets.keys()]);
  return state;
}
