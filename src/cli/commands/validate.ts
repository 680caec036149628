/** @module `stockmock validate`: check spec, config and every scenario's data; exit 1 on errors. */
import { readDeclared } from '../../api/serving.ts';
import { loadConfig, type ConfigRequest } from '../../config/load-config.ts';
import { formatSourceIssue } from '../../problems/source-error.ts';
import {
  loadScenario,
  scenarioWarnings,
  type LoadPlan,
  type ScenarioSource,
} from '../../scenarios/load-scenarios.ts';
import { DEFAULT_SCENARIO } from '../../scenarios/scenario-store.ts';
import { undeclaredStatusWarnings } from '../../resources/undeclared-statuses.ts';
import { createExampleAnswers } from '../../spec/example-answers.ts';
import { boundedPatternWarnings } from '../../spec/pattern-warnings.ts';
import { faultWarnings } from '../../spec/served-faults.ts';
import { buildRouteTable, describeAnswers, distinctRoutes } from '../../spec/route-table.ts';
import { describeWrites } from '../../resources/write-declarations.ts';
import { writeWarnings } from '../../writes/write-warnings.ts';
import type { Command } from '../command.ts';
import { CONFIG_FLAGS, configFlagHelp, configFlags } from '../config-flags.ts';
import { describeFailure } from '../describe-failure.ts';

export const validateCommand: Command = {
  name: 'validate',
  summary: 'Check the spec, the config and the fixtures; exit 1 on errors',
  usage:
    'stockmock validate [--config FILE] [--fixtures FILE] [--spec FILE] [--scenario NAME] [--strict]\n' +
    configFlagHelp(false),
  flags: CONFIG_FLAGS,
  async run(args, io) {
    const request: ConfigRequest = {
      cwd: io.cwd,
      env: io.env,
      ...configFlags(args),
      onWarning: (issue) => {
        io.error(`warn ${formatSourceIssue(issue)}\n`);
      },
    };
    const config = await loadConfig(request);
    io.write('ok   config\n');
    const scenarios: [string, ScenarioSource][] = [
      [DEFAULT_SCENARIO, config.fixtures],
      ...Object.entries(config.scenarios),
    ];
    // The spec's declarations say what a fixture holds: the spec is checked first.
    let plan: LoadPlan | undefined;
    const checks: [string, () => Promise<string>][] = [
      [
        config.spec,
        async () => {
          // Read as serve reads them, the config's fit to it included, so that a spec validate
          // accepts is one serve serves.
          const declared = await readDeclared(config, request);
          const { spec, declarations } = declared;
          plan = declared.plan;
          const routes = buildRouteTable(
            spec,
            config.compatibility.unknownQueryParameters,
            new Set(declarations.operations.keys()),
          );
          for (const line of distinctRoutes(routes).shadowed) io.error(`warn ${line}\n`);
          for (const warning of faultWarnings(spec.faults, Number.POSITIVE_INFINITY)) {
            io.error(`warn ${formatSourceIssue(warning)}\n`);
          }
          for (const warning of boundedPatternWarnings(spec, Number.POSITIVE_INFINITY)) {
            io.error(`warn ${formatSourceIssue(warning)}\n`);
          }
          for (const warning of undeclaredStatusWarnings(
            spec,
            declarations,
            config.compatibility,
          )) {
            io.error(`warn ${formatSourceIssue(warning)}\n`);
          }
          for (const warning of writeWarnings(spec, declarations)) {
            io.error(`warn ${formatSourceIssue(warning)}\n`);
          }
          const examples = routes.filter((route) => route.answers === 'examples');
          await createExampleAnswers(spec, new Set(examples.map((route) => route.key)));
          const writes = describeWrites(declarations.operations);
          return `${String(Object.keys(spec.document.paths ?? {}).length)} paths, ${String(declarations.collections.size)} collections; ${describeAnswers(spec, new Set(declarations.operations.keys()))}${writes === undefined ? '' : `; ${writes}`}`;
        },
      ],
      ...scenarios.map(([name, source]): [string, () => Promise<string>] => [
        typeof source === 'string' ? `${source} (scenario ${name})` : `scenario ${name}`,
        async () => {
          if (plan === undefined) throw new SpecFirst();
          if (plan.collections.length === 0) return 'not read: the spec declares no collections';
          const collections = await loadScenario(source, plan, {
            maxBytes: config.maxFixtureBytes,
          });
          for (const warning of await scenarioWarnings(source, plan)) {
            io.error(`warn ${formatSourceIssue(warning)}\n`);
          }
          return collections
            .map((collection) => `${String(collection.size)} ${collection.name}`)
            .join(', ');
        },
      ]),
    ];
    let failed = 0;
    for (const [label, check] of checks) {
      try {
        io.write(`ok   ${label}: ${await check()}\n`);
      } catch (error) {
        // A fixture is read by the spec's declarations: with an invalid spec it is not judged.
        if (error instanceof SpecFirst) {
          io.write(`skip ${label}: not checked, the spec is invalid\n`);
          continue;
        }
        failed += 1;
        io.error(`FAIL ${describeFailure(error)}\n`);
      }
    }
    io.write(
      failed === 0
        ? 'All files are valid.\n'
        : `${String(failed)} ${failed === 1 ? 'file is' : 'files are'} invalid.\n`,
    );
    return failed === 0 ? 0 : 1;
  },
};

/** A fixture left unread because the spec that says what it holds is invalid. */
class SpecFirst extends Error {}
