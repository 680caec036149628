import { describe, expect, it } from 'vitest';
import { datasetOf } from '../helpers/datasets.ts';
import {
  createScenarioStore,
  storeToFill,
  UnknownScenario,
} from '../../src/scenarios/scenario-store.ts';

const catalog = (source: string) => datasetOf(source, []);

describe('scenario store', () => {
  const store = () =>
    createScenarioStore(
      new Map([
        ['default', catalog('d')],
        ['empty', catalog('e')],
      ]),
    );

  it('serves the active scenario, and any scenario by name', () => {
    const scenarios = store();
    expect(scenarios.current.source).toBe('d');
    expect(scenarios.get('empty')?.source).toBe('e');
    expect(scenarios.get('nope')).toBeUndefined();
  });

  it('switches the active scenario, and refuses an unknown one without changing anything', () => {
    const scenarios = store();
    scenarios.activate('empty');
    expect(scenarios.current.source).toBe('e');
    expect(() => {
      scenarios.activate('nope');
    }).toThrow(UnknownScenario);
    expect(scenarios.active).toBe('empty');
  });

  it('replaces every catalogue at once, keeping the active name when it still exists', () => {
    const scenarios = store();
    scenarios.activate('empty');
    const before = scenarios.current;
    scenarios.replaceAll(
      new Map([
        ['default', catalog('d2')],
        ['empty', catalog('e2')],
      ]),
    );
    expect(before.source).toBe('e');
    expect(scenarios.current.source).toBe('e2');
    scenarios.replaceAll(new Map([['default', catalog('d3')]]));
    expect(scenarios.active).toBe('default');
  });

  it('refuses to start on an unknown scenario', () => {
    expect(() => createScenarioStore(new Map([['default', catalog('d')]]), 'x')).toThrow(
      UnknownScenario,
    );
  });
});

describe('a store to fill', () => {
  const datasets = new Map([
    ['default', catalog('d')],
    ['empty', catalog('e')],
  ]);

  it('refuses every read before it is filled, and serves the scenario named once filled', () => {
    const { store, fill } = storeToFill('empty');
    expect(() => store.current).toThrow(/still loading/);
    expect(() => store.get('default')).toThrow(/still loading/);
    fill(datasets);
    expect(store.current.source).toBe('e');
    expect(store.names).toEqual(['default', 'empty']);
    store.activate('default');
    expect(store.active).toBe('default');
  });

  it('refuses, when filled, a scenario the data has not', () => {
    expect(() => {
      storeToFill('nope').fill(datasets);
    }).toThrow(UnknownScenario);
  });
});
