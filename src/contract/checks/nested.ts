/**
 * @module The checks of a nested list (`/events/{eventId}/tickets`): under each parent it holds
 * that parent's items only, no item under two parents, an unknown parent holds nothing, and a
 * nested item is found under its own parent only.
 */
import type { Check, Failure, Findings } from '../check.ts';
import { found } from '../check.ts';
import { memberOf, viewFor, type NestedPlacement } from '../declared.ts';
import { describeRequest, failureOf, statusOf } from '../describe-exchange.ts';
import { readerName } from '../learn.ts';
import { fillPath } from '../nested.ts';
import { unknownKey } from '../unknown-key.ts';
import { idOf, isFailure, pagesOf, readPage, sized, someIds, withQuery, type Id } from '../walk.ts';
import { guarded, sourceOf } from './declared-guard.ts';
import { readerOf } from './pagination.ts';

/** The list's path under another parent than the one it was placed under. */
function pathUnder(placement: NestedPlacement, key: Id): string {
  const { list, parent, outer } = placement;
  return fillPath(list.collection.name, new Map(outer).set(parent.parameter, key));
}

/**
 * Rule (interface, the spec's path): a nested list holds its parent's items only. Walked
 * under a few parents, no item appears under two, and where the view shows the field that holds
 * the parent's key, each item's is the parent's. What breaks it: the parent ignored (every
 * parent's list the same), a filter that drops the parent, a join on the wrong field.
 */
function parentsCheck(placement: NestedPlacement): Check {
  const { list, parent, under } = placement;
  const { collection } = list;
  return {
    id: `nested.${collection.name}`,
    title: `${collection.name}: under each ${parent.parameter}, that parent's items only, none under two`,
    level: 'interface',
    source: sourceOf(collection.name, `collection (nested under ${parent.parameter})`),
    needs: [],
    async run(context): Promise<Findings> {
      const as = readerOf(context, collection);
      const view = viewFor(list.views, readerName(as));
      const member =
        view === undefined || parent.field === undefined ? undefined : memberOf(view, parent.field);
      const owner = new Map<Id, Id>();
      const failures: Failure[] = [];
      let items = 0;
      for (const { key, path } of under) {
        const asked = withQuery(path, sized(collection, collection.limits.max));
        const walked = await context.walk(asked, as, pagesOf(collection));
        failures.push(...walked.failures);
        const request = describeRequest({ method: 'GET', url: asked, as });
        items += walked.items.length;
        const foreign: Id[] = [];
        const twice: Id[] = [];
        for (const item of walked.items) {
          const id = idOf(collection, item);
          if (id === undefined) continue;
          const before = owner.get(id);
          if (before !== undefined && before !== key) twice.push(id);
          owner.set(id, key);
          if (member !== undefined && String(item[member]) !== String(key)) foreign.push(id);
        }
        if (twice.length > 0) {
          failures.push({
            message: `Items listed under another ${parent.parameter} too: ${someIds(twice)}`,
            request,
            expected: `only the items of ${parent.parameter} ${String(key)}`,
          });
        }
        if (foreign.length > 0) {
          failures.push({
            message: `Items whose ${member ?? ''} is not ${String(key)}: ${someIds(foreign)}`,
            request,
            expected: `every item's ${member ?? ''} ${String(key)}`,
          });
        }
      }
      return found(
        failures.slice(0, 10),
        `${String(items)} items under ${String(under.length)} parents (${under.map(({ key }) => String(key)).join(', ')})`,
      );
    },
  };
}

/**
 * Rule (interface): under a parent that does not exist there is nothing: a 4xx, or an empty
 * list. What breaks it: the parent not looked up, so that any key lists every item.
 */
function unknownParentCheck(placement: NestedPlacement, strict: boolean): Check {
  const { list, parent } = placement;
  const { collection } = list;
  return {
    id: `nested.${collection.name}.unknown-parent${strict ? '-404' : ''}`,
    title: strict
      ? `${collection.name}: an unknown ${parent.parameter} is a 404`
      : `${collection.name}: an unknown ${parent.parameter} holds nothing (a 4xx or an empty list)`,
    level: strict ? 'stand-in' : 'interface',
    source: strict
      ? 'docs/declare-a-resource.md: nested lists (an unknown parent is a 404)'
      : sourceOf(collection.name, `collection (nested under ${parent.parameter})`),
    needs: [],
    async run(context): Promise<Findings> {
      const key = unknownKey(placement.parentKeys, parent.schema.pattern);
      if (key === undefined) {
        return { failures: [], skipped: `no key fits ${parent.parameter}'s schema and is new` };
      }
      const exchange = await context.client.request({
        path: withQuery(pathUnder(placement, key), sized(collection, 1)),
        as: readerOf(context, collection),
      });
      const status = statusOf(exchange) ?? 0;
      if (strict) {
        return found(
          status === 404
            ? []
            : [failureOf(exchange, `${parent.parameter} ${String(key)} is no parent's`, '404')],
        );
      }
      if (status >= 400 && status < 500) return found([]);
      const page = readPage(exchange, collection.envelope);
      if (!isFailure(page) && page.data.length === 0) return found([]);
      return found([
        failureOf(
          exchange,
          `Items listed under ${parent.parameter} ${String(key)}, which no parent has`,
          'a 4xx, or an empty list',
        ),
      ]);
    },
  };
}

/**
 * Rule (interface): a nested item is found under its own parent only. Its key under another
 * parent names nothing: a 4xx. What breaks it: the item looked up by its own key alone.
 */
function otherParentCheck(placement: NestedPlacement): Check {
  const { list, parent, under } = placement;
  const { collection } = list;
  const [item] = placement.items;
  return {
    id: `nested.${item?.template ?? collection.name}.other-parent`,
    title: `${item?.template ?? collection.name}: an item under another ${parent.parameter} than its own is not found`,
    level: 'interface',
    source: sourceOf(item?.template ?? collection.name, 'item (nested)'),
    needs: [],
    async run(context): Promise<Findings> {
      if (item === undefined) return { failures: [], skipped: 'no nested item is declared' };
      const as = readerOf(context, collection);
      const failures: Failure[] = [];
      const seen = new Map<Id, readonly Id[]>();
      for (const { key, path } of under) {
        const walked = await context.walk(
          withQuery(path, sized(collection, collection.limits.max)),
          as,
          pagesOf(collection),
        );
        seen.set(
          key,
          walked.items.flatMap((entry) => idOf(collection, entry) ?? []),
        );
      }
      for (const [owner, ids] of seen) {
        const [id] = ids;
        const other = [...seen.keys()].find((key) => key !== owner);
        if (id === undefined || other === undefined) continue;
        const itemPath = fillPath(
          item.template,
          new Map(placement.outer).set(parent.parameter, other).set(item.parameter, id),
        );
        const exchange = await context.client.request({ path: itemPath, as });
        const status = statusOf(exchange) ?? 0;
        if (status < 400 || status >= 500) {
          failures.push(
            failureOf(
              exchange,
              `The item ${String(id)} of ${parent.parameter} ${String(owner)} is found under ${String(other)}`,
              'a 4xx (404)',
            ),
          );
        }
      }
      if (seen.size < 2) return { failures: [], skipped: `fewer than two ${parent.parameter}s` };
      return found(failures);
    },
  };
}

/** Every check of the nested lists as placed. */
export function nestedChecksOf(placements: readonly NestedPlacement[]): Check[] {
  return placements.flatMap((placement) =>
    [
      parentsCheck(placement),
      unknownParentCheck(placement, false),
      unknownParentCheck(placement, true),
      ...(placement.items.length === 0 ? [] : [otherParentCheck(placement)]),
    ].map((check) => guarded(check, placement.list)),
  );
}
