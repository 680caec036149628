/**
 * @module `stockmock contract URL --suggest-config`: the `compatibility:` block that makes a
 * stockmock answer like the target on every open point the run observed, from what each
 * stand-in check saw the target decide; and the differences that no setting covers.
 */
import { stringify } from 'yaml';
import type { CheckResult } from './check.ts';
import type { Report } from './run-contract.ts';
import {
  PRODUCT_SETTINGS,
  sameSetting,
  type SettingValue,
  type StandInSettings,
} from './stand-in.ts';

export interface SuggestedSetting {
  readonly setting: keyof StandInSettings;
  readonly value: SettingValue;
  /** What the run saw, in words: the comment of the line. */
  readonly seen: string;
}

export interface Suggestion {
  /** In the order of PRODUCT_SETTINGS. */
  readonly settings: readonly SuggestedSetting[];
  /** Differences observed that no setting covers. */
  readonly uncovered: readonly string[];
}

/** The check that judges every answer by the spec as given. */
const CONFORMANCE = 'conformance.stand-in';

export function suggestConfig(report: Report): Suggestion {
  const chosen = new Map<keyof StandInSettings, SuggestedSetting>();
  const uncovered: string[] = [];
  const unexplained: CheckResult[] = [];
  for (const result of report.results) {
    for (const decided of result.decided ?? []) {
      if (!('setting' in decided)) {
        uncovered.push(decided.uncovered);
        continue;
      }
      const before = chosen.get(decided.setting);
      if (before === undefined) chosen.set(decided.setting, decided);
      else if (!sameSetting(before.value, decided.value)) {
        // Two lists deciding one point apart: no one value serves both.
        uncovered.push(`${before.seen} in one place, and ${decided.seen} in another`);
      }
    }
    // A stand-in check that failed without saying which setting would fix it.
    if (isDifference(result) && (result.decided ?? []).length === 0) {
      unexplained.push(result);
    }
  }
  // Answers that the spec as given does not describe follow from the settings where any
  // differs from the stand-in judged; only where none does are they a difference of their own.
  const anyDiffers = [...chosen.values()].some(
    ({ setting, value }) => !sameSetting(report.standIn[setting], value),
  );
  for (const result of unexplained) {
    if (result.id !== CONFORMANCE || !anyDiffers) {
      uncovered.push(`${result.id}: ${firstMessage(result)}`);
    }
  }
  const order = Object.keys(PRODUCT_SETTINGS) as (keyof StandInSettings)[];
  return {
    settings: order.flatMap((key) => {
      const setting = chosen.get(key);
      return setting === undefined ? [] : [setting];
    }),
    uncovered: [...new Set(uncovered)],
  };
}

function isDifference(result: CheckResult): boolean {
  return (
    result.level === 'stand-in' &&
    (result.outcome.kind === 'failed' || result.outcome.kind === 'differs')
  );
}

function firstMessage(result: CheckResult): string {
  const { outcome } = result;
  return outcome.kind === 'failed' || outcome.kind === 'differs'
    ? (outcome.failures[0]?.message ?? result.title)
    : result.title;
}

/** The block as YAML for a stockmock config, a comment on each line saying what was seen. */
export function renderSuggestion(suggestion: Suggestion): string {
  const lines = [
    '# What `stockmock contract --suggest-config` saw the target decide on the open points of',
    '# the interface: with this block, stockmock answers as the target does.',
    'compatibility:',
    ...suggestion.settings.flatMap(({ setting, value, seen }) => {
      const same = sameSetting(PRODUCT_SETTINGS[setting], value) ? ", as stockmock's default" : '';
      if (typeof value === 'string')
        return [`  ${setting}: ${yamlScalar(value)} # seen: ${seen}${same}`];
      // A map, one entry a line.
      return [
        `  ${setting}: # seen: ${seen}`,
        ...Object.entries(value).map(
          ([name, entry]) => `    ${yamlScalar(name)}: ${yamlScalar(entry)}`,
        ),
      ];
    }),
  ];
  if (suggestion.settings.length === 0) lines.push('  {} # no open point was observed');
  if (suggestion.uncovered.length > 0) {
    lines.push(
      '# Observed, but no setting covers it:',
      ...suggestion.uncovered.map((text) => `#   - ${text}`),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The value as YAML writes a string: plain where that reads back the same, else quoted. */
function yamlScalar(value: string): string {
  return stringify(value).trim();
}
