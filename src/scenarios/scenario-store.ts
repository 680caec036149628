/** @module The served data: one immutable catalogue per scenario, and which one is active. */
import type { Catalog } from '../catalog/catalog.ts';
import { createQueryEngine, type EngineData, type QueryEngine } from '../query/engine.ts';

/** The scenario that serves the config's `fixtures`. */
export const DEFAULT_SCENARIO = 'default';

/** Asked for a scenario that is not configured. */
export class UnknownScenario extends Error {
  readonly scenario: string;
  constructor(scenario: string, known: readonly string[]) {
    super(`unknown scenario "${scenario}" (known: ${known.join(', ')})`);
    this.name = 'UnknownScenario';
    this.scenario = scenario;
  }
}

/** A scenario's data as served: a catalogue and the query engine over it, made together. */
export interface Dataset {
  readonly catalog: Catalog;
  readonly engine: QueryEngine;
  /** Unique among every dataset of the process: what answers derived from it are keyed by. */
  readonly serial: number;
}

/** A catalogue with the engine's indexes, built where it was loaded (the loading worker). */
export interface LoadedScenario {
  readonly catalog: Catalog;
  readonly indexes: EngineData;
}

/** A scenario's data as given to the store: loaded with its indexes, or a bare catalogue. */
export type ScenarioInput = LoadedScenario | Catalog;

let datasetsMade = 0;

function datasetOf(input: ScenarioInput): Dataset {
  datasetsMade += 1;
  // A bare catalogue (tests, the programmatic API) has its indexes built here.
  const [catalog, indexes] = 'indexes' in input ? [input.catalog, input.indexes] : [input];
  return Object.freeze({
    catalog,
    engine: createQueryEngine(catalog, indexes),
    serial: datasetsMade,
  });
}

/**
 * Holds every scenario's dataset. All of it lives in one immutable state object whose
 * reference is swapped whole, so a request that has read a catalogue keeps it to its end, and a
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
  /** Replaces the active scenario's catalogue. */
  replace(catalog: ScenarioInput): void;
  /** Replaces every catalogue at once (a reload); keeps the active name if it still exists. */
  replaceAll(catalogs: ReadonlyMap<string, ScenarioInput>): void;
}

interface State {
  readonly active: string;
  readonly datasets: ReadonlyMap<string, Dataset>;
}

export function createScenarioStore(
  initial: ReadonlyMap<string, ScenarioInput> | ScenarioInput,
  active: string = DEFAULT_SCENARIO,
): ScenarioStore {
  const catalogs: ReadonlyMap<string, ScenarioInput> =
    initial instanceof Map ? initial : new Map([[DEFAULT_SCENARIO, initial as ScenarioInput]]);
  let state: State = checked({ active, datasets: datasetsOf(catalogs) });

  return {
    get active() {
      return state.active;
    },
    get names() {
      return [...state.datasets.keys()];
    },
    get current() {
      return state.datasets.get(state.active) as Dataset;
    },
    get: (name) => state.datasets.get(name),
    activate(name) {
      state = checked({ ...state, active: name });
    },
    replace(catalog) {
      const datasets = new Map([...state.datasets, [state.active, datasetOf(catalog)]]);
      state = { ...state, datasets };
    },
    replaceAll(next) {
      state = checked({
        active: next.has(state.active) ? state.active : DEFAULT_SCENARIO,
        datasets: datasetsOf(next),
      });
    },
  };
}

function datasetsOf(catalogs: ReadonlyMap<string, ScenarioInput>): ReadonlyMap<string, Dataset> {
  return new Map([...catalogs].map(([name, catalog]) => [name, datasetOf(catalog)]));
}

function checked(state: State): State {
  if (!state.datasets.has(state.active))
    throw new UnknownScenario(state.active, [...state.datasets.keys()]);
  return state;
}
