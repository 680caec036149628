/**
 * @module The answer a correct service gives to one request of a declared list, computed with
 * the checker's own code from the list learned whole at each level: the status, the items in
 * their order as the asking level sees them, the envelope's numbers and the pages its links
 * name. Where correct readings differ (an empty value, a needle in another case, a page past
 * the end) it holds what every one of them agrees on, and the comparison accepts any of them.
 */
import { isDeepStrictEqual } from 'node:util';
import type { DeclaredFilter, DeclaredList } from '../declared.ts';
import { memberOf, viewFor } from '../declared.ts';
import type { LearnedList } from '../learn.ts';
import { readerName } from '../learn.ts';
import type { Credentials } from '../target-client.ts';
import type { EnvelopeNumber, Id, Item, ListPage } from '../walk.ts';
import {
  ENVELOPE_NUMBERS,
  idOf,
  idsOf,
  LINK_NAMES,
  queryParameter,
  queryParameters,
  someIds,
} from '../walk.ts';
import { foldLoosely } from './fold-case.ts';
import { holdsLoosely, keeps, mayKeep } from './filters.ts';
import { judgeValue, type Validity } from './parameter-rules.ts';
import { sortedPlaces, type OrderReading } from './sort-order.ts';

/** One request of a list: its query pairs in the order sent, its method, who asks. */
export interface ListRequest {
  readonly pairs: readonly (readonly [string, string])[];
  readonly method: 'GET' | 'HEAD';
  readonly as: Credentials;
}

export type ListAnswer =
  /** No token, or one the service does not know, on a list that needs one: a 401. */
  | { readonly kind: 'unauthorized' }
  /** A value the spec refuses: a 4xx. */
  | { readonly kind: 'refused' }
  /** A value some services read as absent and others refuse: a 4xx, or a 200 not known. */
  | { readonly kind: 'open' }
  | ExpectedPage;

export interface ExpectedPage {
  readonly kind: 'page';
  /**
   * A correct service may refuse instead: a size or position with leading zeros, an empty
   * needle, a size above the maximum, a later page the readings disagree on.
   */
  readonly mayRefuse: boolean;
  /** Whether some correct reading of the filters keeps an id: no page holds another. */
  readonly mayHold: (id: Id) => boolean;
  /** The ids every reading keeps, where the page holds them all (else none). */
  readonly mustHold: ReadonlySet<Id>;
  /** The level's items by id, to hold each served item to its view. */
  readonly seen: ReadonlyMap<Id, Item>;
  /** What every reading agrees on; undefined where the filters' readings differ. */
  readonly agreed: AgreedPage | undefined;
}

/** A page whose every part is known. */
export interface AgreedPage {
  /**
   * The items as the asking level sees them, in order (the last page's past the end); undefined
   * where correct services may sort them differently (oracle/sort-order.ts).
   */
  readonly items: readonly Item[] | undefined;
  /** Past the end: empty with this page's number, or the last page again, or a 4xx. */
  readonly pastTheEnd: boolean;
  readonly numbers: Readonly<Partial<Record<EnvelopeNumber, number>>>;
  /** For lists paged by number: the page asked for, the first and the last, and the names. */
  readonly pages: PageNumbers | undefined;
}

interface PageNumbers {
  readonly name: string;
  readonly asked: number;
  readonly first: number;
  readonly last: number;
  /** Nothing is kept: `first` and `last` may be null (the interface's envelope says so). */
  readonly none: boolean;
  /** The query each link keeps: the filters and the size as asked. */
  readonly kept: readonly (readonly [string, string])[];
  readonly size: { readonly name: string; readonly value: string; readonly byDefault: string };
}

/** What the model knows of a list: its declaration and what each level saw of it. */
export interface ListModel {
  readonly list: DeclaredList;
  readonly learned: LearnedList;
  /** The filters whose field the most-seeing level is shown: only these can be computed. */
  readonly filters: readonly DeclaredFilter[];
  /** Whose order a sort gives: the interface leaves text's open, the stand-in's is fixed. */
  readonly reading: OrderReading;
  /** Whether the most-seeing level is shown a field. */
  shows(field: string): boolean;
  /** A field's value in one of the most-seeing level's items. */
  valueOf(item: Item, field: string): unknown;
  /** Each level's items by key, made once for every request the model answers. */
  seenBy(level: string): ReadonlyMap<Id, Item>;
  /** The place of an id in the most-seeing level's list. */
  placeOf(id: Id): number | undefined;
  /** Every place of that list: what a request without filters keeps. */
  readonly everyPlace: readonly number[];
  /** A `contains` filter's text at a place, folded loosely, made once for every request. */
  foldedAt(filter: DeclaredFilter, place: number): string | undefined;
}

export function listModel(
  list: DeclaredList,
  learned: LearnedList,
  reading: OrderReading = 'interface',
): ListModel {
  const view =
    learned.holder === undefined ? undefined : viewFor(list.views, readerName(learned.holder));
  const memberFor = (field: string) => (view === undefined ? field : memberOf(view, field));
  const byKey = new Map<string, ReadonlyMap<Id, Item>>();
  // Made once: a request reads them for every item of a list that may hold a million.
  const places = new Map<Id, number>();
  learned.items.forEach((item, place) => {
    const id = idOf(list.collection, item);
    if (id !== undefined) places.set(id, place);
  });
  const folded = new Map<DeclaredFilter, readonly (string | undefined)[]>();
  return {
    placeOf: (id) => places.get(id),
    foldedAt(filter, place) {
      let texts = folded.get(filter);
      if (texts === undefined) {
        texts = learned.items.map((item) => {
          const value = item[memberFor(filter.field) ?? filter.field];
          return typeof value === 'string' ? foldLoosely(value) : undefined;
        });
        folded.set(filter, texts);
      }
      return texts[place];
    },
    everyPlace: learned.items.map((_, place) => place),
    list,
    learned,
    filters: list.filters.filter((filter) => memberFor(filter.field) !== undefined),
    reading,
    shows: (field) => memberFor(field) !== undefined,
    valueOf: (item, field) => item[memberFor(field) ?? field],
    seenBy(level) {
      let seen = byKey.get(level);
      if (seen === undefined) {
        const items = new Map<Id, Item>();
        for (const item of learned.byLevel.get(level) ?? learned.items) {
          const id = idOf(list.collection, item);
          if (id !== undefined) items.set(id, item);
        }
        seen = items;
        byKey.set(level, seen);
      }
      return seen;
    },
  };
}

/** The page position a list is asked for by, and where it counts from. */
export function positionOf(list: DeclaredList): { name: string; from: number } | undefined {
  const { paging } = list.collection;
  switch (paging.kind) {
    case 'number':
      return { name: paging.page, from: paging.first };
    case 'links':
      return { name: 'page', from: 1 };
    case 'offset':
      return { name: paging.offset, from: 0 };
    default:
      return undefined;
  }
}

/**
 * The page size and position as the spec judges them; a value it takes that the model cannot
 * place (a size below 1, a position before the first) is left open.
 */
function pagingVerdicts(list: DeclaredList, values: ReadonlyMap<string, string>): Validity[] {
  const { paging } = list.collection;
  const position = positionOf(list);
  const named: [string | undefined, number][] = [
    [paging.kind === 'whole' ? undefined : paging.size, 1],
    [position?.name, position?.from ?? 0],
  ];
  return named.flatMap(([name, least]) => {
    const raw = name === undefined ? undefined : values.get(name);
    if (raw === undefined) return [];
    const rule = list.rules.find((candidate) => candidate.name === name);
    // Leading zeros: the decimal number, or refused, never read as octal.
    const number = zeroed(raw) ? String(Number(raw)) : raw;
    // A size above the maximum: held to the maximum, or refused (clampedSize).
    if (clampedSize(list, name, raw) !== undefined) return ['valid'];
    const verdict = rule === undefined ? 'open' : judgeValue(rule.schema, number);
    const placed = /^\d+$/.test(raw) && Number(raw) >= least;
    return [verdict === 'valid' && !placed ? 'open' : verdict];
  });
}

const zeroed = (raw: string): boolean => /^0+[1-9]\d*$/.test(raw);

/** The size a page above the schema's maximum is held to; undefined for any other value. */
function clampedSize(
  list: DeclaredList,
  name: string | undefined,
  raw: string,
): number | undefined {
  const { paging } = list.collection;
  const most = list.sizeMaximum;
  if (paging.kind === 'whole' || name !== paging.size || most === undefined) return undefined;
  return /^[1-9]\d{0,15}$/.test(raw) && Number(raw) > most ? most : undefined;
}

/** The answer a correct service gives to `request`. */
export function expectedAnswer(model: ListModel, request: ListRequest): ListAnswer {
  const { list, learned } = model;
  const { collection } = list;
  if (request.as === 'none' || request.as === 'wrong') {
    if (!list.open) return { kind: 'unauthorized' };
  }
  const values = new Map(request.pairs);
  const { sort } = list;
  // An array filter's values: each pair of its name, or the items one value joins.
  const textsOf = (filter: DeclaredFilter): string[] => {
    const given = request.pairs.filter(([name]) => name === filter.parameter).map(([, v]) => v);
    if (filter.schema.type !== 'array') return given.slice(0, 1);
    const { items } = filter;
    return items.explode ? given : given.flatMap((value) => value.split(items.separator));
  };
  const many = new Set(
    model.filters.flatMap((filter) =>
      filter.schema.type === 'array' && filter.items.explode ? [filter.parameter] : [],
    ),
  );
  // Counted once each: a link's query, the target's to write, may hold any number of pairs.
  const singles = request.pairs.map(([name]) => name).filter((name) => !many.has(name));
  const repeated = new Set(singles).size !== singles.length;
  const asked = model.filters.flatMap((filter) => {
    const texts = textsOf(filter);
    return texts.length === 0 ? [] : [[filter, texts] as const];
  });
  // An empty needle keeps every item, read as absent or as a value; a service may refuse it.
  const emptyNeedle = asked.some(
    ([filter, texts]) => filter.match === 'contains' && texts.includes(''),
  );
  const verdicts = [
    ...asked.flatMap(([filter, texts]) =>
      texts.map((raw) => [filter.schema, raw, filter.match === 'contains'] as const),
    ),
    ...(sort === undefined || !values.has(sort.parameter)
      ? []
      : [[sort.schema, values.get(sort.parameter) ?? '', false] as const]),
  ].map(([schema, raw, contained]) => {
    const verdict = judgeValue(schema, raw);
    // An empty value is read as absent or as a value by services alike.
    return raw === '' && verdict !== 'invalid' && !contained ? 'open' : verdict;
  });
  verdicts.push(...pagingVerdicts(list, values));
  if (verdicts.includes('invalid')) return { kind: 'refused' };
  // A single-valued parameter given twice: the first, the last or a 400 (an open point).
  if (verdicts.includes('open') || repeated) return { kind: 'open' };

  const level = learned.byLevel.get(readerName(request.as)) ?? learned.items;
  const seen = model.seenBy(readerName(request.as));
  const keptBy = (reading: (filter: DeclaredFilter, place: number, text: string) => boolean) =>
    asked.length === 0
      ? model.everyPlace
      : model.everyPlace.filter((place) =>
          asked.every(([filter, texts]) => texts.some((text) => reading(filter, place, text))),
        );
  const valueAt = (filter: DeclaredFilter, place: number) =>
    model.valueOf(learned.items[place] ?? {}, filter.field);
  const strict = keptBy((filter, place, text) => keeps(filter, valueAt(filter, place), text));
  const loose = keptBy((filter, place, text) =>
    filter.match === 'contains'
      ? holdsLoosely(model.foldedAt(filter, place), text)
      : mayKeep(filter, valueAt(filter, place), text),
  );
  // Without filters every listed id may be held: no flags to fill for a million items.
  const loosely = asked.length === 0 ? undefined : new Uint8Array(learned.items.length);
  if (loosely !== undefined) for (const place of loose) loosely[place] = 1;
  const idsAt = (places: readonly number[]) =>
    new Set(
      places.flatMap((place) => {
        const id = idOf(collection, learned.items[place] ?? {});
        return id === undefined ? [] : [id];
      }),
    );
  const mayHold = (id: Id) => {
    const place = model.placeOf(id);
    return place !== undefined && (loosely === undefined || loosely[place] === 1);
  };
  const sameOrder = level.length === learned.items.length;
  const clamped = request.pairs.some(([name, raw]) => clampedSize(list, name, raw) !== undefined);
  const mayRefuse = emptyNeedle || clamped || request.pairs.some(([, raw]) => zeroed(raw));
  if (strict.length !== loose.length || !sameOrder) {
    // Where the readings keep different counts, a later page may be past the end of some.
    const position = positionOf(list);
    const later =
      position !== undefined && Number(values.get(position.name) ?? position.from) > position.from;
    // On a first page that holds the loosest reading's all, what every reading keeps is there.
    const { paging, limits } = collection;
    const sizeName = paging.kind === 'whole' ? undefined : paging.size;
    const askedSize = Number(
      (sizeName === undefined ? undefined : values.get(sizeName)) ?? limits.default,
    );
    const size = Math.min(askedSize, list.sizeMaximum ?? askedSize);
    const whole = paging.kind === 'whole' || (!later && size >= loose.length);
    return {
      kind: 'page',
      mayRefuse: mayRefuse || later,
      mayHold,
      mustHold: whole && sameOrder ? idsAt(strict) : new Set(),
      seen,
      agreed: undefined,
    };
  }
  const order = sort === undefined ? undefined : values.get(sort.parameter);
  const ordered =
    order === undefined
      ? strict
      : sortedPlaces(
          { ...model, items: learned.items, keyOf: (item) => idOf(collection, item) },
          strict,
          order,
          model.reading,
        );
  return {
    kind: 'page',
    mayRefuse,
    mayHold,
    mustHold: new Set(),
    seen,
    agreed: clamped
      ? {
          // The page at the maximum; its links may keep the size asked or the maximum.
          ...agreedPage(
            list,
            request.pairs.map(([name, raw]) => [name, String(clampedSize(list, name, raw) ?? raw)]),
            ordered ?? strict,
            ordered === undefined ? undefined : level,
          ),
          pages: undefined,
        }
      : agreedPage(
          list,
          request.pairs,
          ordered ?? strict,
          ordered === undefined ? undefined : level,
        ),
  };
}

/** The page every reading agrees on, from the places the filters keep. */
function agreedPage(
  list: DeclaredList,
  pairs: ListRequest['pairs'],
  kept: readonly number[],
  /** The asking level's items, or undefined where the order is a sort's. */
  level: readonly Item[] | undefined,
): AgreedPage {
  const { paging, limits, envelope } = list.collection;
  const values = new Map(pairs);
  const total = kept.length;
  const sizeName = paging.kind === 'whole' ? undefined : paging.size;
  const askedSize = sizeName === undefined ? undefined : values.get(sizeName);
  const size = paging.kind === 'whole' ? Math.max(total, 1) : Number(askedSize ?? limits.default);
  const position = positionOf(list);
  const askedPlace = position === undefined ? undefined : values.get(position.name);
  const numbered = paging.kind === 'links' || paging.kind === 'number';
  const page = numbered && position !== undefined ? Number(askedPlace ?? position.from) : 1;
  const start =
    paging.kind === 'offset'
      ? Number(askedPlace ?? 0)
      : numbered && position !== undefined
        ? (page - position.from) * size
        : 0;
  const pastTheEnd = start > 0 && start >= total;
  const lastCount = Math.max(1, Math.ceil(total / size));
  const first = position?.from ?? 1;
  const lastStart = (lastCount - 1) * size;
  const places = pastTheEnd
    ? kept.slice(lastStart, lastStart + size)
    : kept.slice(start, start + size);
  const numbers: Partial<Record<EnvelopeNumber, number>> = {};
  if (envelope.kind === 'object') {
    const judged: Record<EnvelopeNumber, boolean> = {
      total: true,
      limit: paging.kind !== 'whole',
      page: numbered,
      pages: numbered,
    };
    const want: Record<EnvelopeNumber, number> = { total, limit: size, page, pages: lastCount };
    for (const name of ENVELOPE_NUMBERS) {
      if (envelope[name] !== undefined && judged[name]) numbers[name] = want[name];
    }
  }
  const query = pairs.filter(([name]) => name !== position?.name && name !== sizeName);
  return {
    items:
      level === undefined
        ? undefined
        : places.flatMap((place) => {
            const item = level[place];
            return item === undefined ? [] : [item];
          }),
    pastTheEnd,
    numbers,
    pages:
      numbered && position !== undefined && sizeName !== undefined
        ? {
            name: position.name,
            asked: page,
            first,
            last: first + lastCount - 1,
            none: total === 0,
            kept: query,
            size: { name: sizeName, value: String(size), byDefault: String(limits.default) },
          }
        : undefined,
  };
}

/**
 * Why a 200 page is not the expected one, or undefined where it is: items the filters do not
 * keep, an item shown otherwise than its level sees it, another page, numbers or links.
 */
export function pageDiffers(
  list: DeclaredList,
  expected: ExpectedPage,
  page: ListPage,
): string | undefined {
  const { collection } = list;
  const served = page.data;
  const gotIds = idsOf(collection, served);
  const foreign = gotIds.filter((id) => id === undefined || !expected.mayHold(id));
  if (foreign.length > 0) return `items the filters do not keep: ${someIds(foreign)}`;
  const missed = [...expected.mustHold].filter((id) => !gotIds.includes(id));
  if (missed.length > 0)
    return `items every reading of the filters keeps are missing: ${someIds(missed)}`;
  for (const item of served) {
    const id = idOf(collection, item);
    const known = id === undefined ? undefined : expected.seen.get(id);
    if (known !== undefined && !isDeepStrictEqual(item, known)) {
      return `item ${String(id)} is not as this level sees it in the whole list: ${describeDifference(known, item)}`;
    }
  }
  const { agreed } = expected;
  if (agreed === undefined) return undefined;
  const lastAgain = agreed.pastTheEnd && served.length > 0;
  const wantItems = agreed.pastTheEnd && !lastAgain ? [] : agreed.items;
  if (wantItems !== undefined && !isDeepStrictEqual(gotIds, idsOf(collection, wantItems))) {
    const wantIds = idsOf(collection, wantItems);
    return `expected the items ${someIds(wantIds, 8)} (${String(wantIds.length)}), got ${someIds(gotIds, 8)} (${String(gotIds.length)})`;
  }
  for (const [name, want] of Object.entries(agreed.numbers)) {
    const got = page.numbers[name as EnvelopeNumber];
    // The last page again past the end may say it is the last page.
    if (name === 'page' && lastAgain && got === agreed.pages?.last) continue;
    if (got !== want) {
      return `${list.collection.envelope.kind === 'object' ? (list.collection.envelope[name as EnvelopeNumber]?.join('.') ?? name) : name} is ${JSON.stringify(got ?? null)}, expected ${String(want)}`;
    }
  }
  return agreed.pages === undefined ? undefined : linksDiffer(list, agreed, agreed.pages, page);
}

/** Which link names the wrong page, drops the filters or the size, or is missing. */
function linksDiffer(
  list: DeclaredList,
  agreed: AgreedPage,
  pages: PageNumbers,
  page: ListPage,
): string | undefined {
  const { envelope } = list.collection;
  const header = envelope.kind === 'none';
  if (envelope.kind === 'object' && envelope.links === undefined) return undefined;
  if (
    header &&
    page.exchange.kind === 'response' &&
    page.exchange.response.headers['link'] === undefined
  ) {
    // A list of one page may leave its Link header out, as GitHub's does.
    return pages.last > pages.first ? 'no Link header on a list of several pages' : undefined;
  }
  const { asked, first, last } = pages;
  const want: Record<(typeof LINK_NAMES)[number], number | null | 'any'> = {
    // A bare array's Link header may leave out first and last, as GitHub's does.
    first: header ? 'any' : first,
    last: header ? 'any' : last,
    prev: agreed.pastTheEnd ? 'any' : asked > first ? asked - 1 : null,
    next: asked < last ? asked + 1 : null,
  };
  for (const name of LINK_NAMES) {
    const link = page.links[name];
    const wanted = want[name];
    if (link === null) {
      const mayLack = pages.none && (name === 'first' || name === 'last');
      if (wanted !== null && wanted !== 'any' && !mayLack) {
        return `${name} is null, expected a link to page ${String(wanted)}`;
      }
      continue;
    }
    if (wanted === null) return `${name} is ${link}, expected null`;
    const named = Number(queryParameter(link, page, pages.name) ?? first);
    if (wanted !== 'any' && named !== wanted) {
      return `${name} names page ${String(named)}, expected ${String(wanted)}: ${link}`;
    }
    for (const parameter of new Set(pages.kept.map(([kept]) => kept))) {
      const want = pages.kept.flatMap(([kept, value]) => (kept === parameter ? [value] : []));
      const got = queryParameters(link, page, parameter);
      if (!isDeepStrictEqual([...got].sort(), want.sort())) {
        return `${name} drops ${parameter}=${want.join(`&${parameter}=`)}: ${link}`;
      }
    }
    const size = queryParameter(link, page, pages.size.name) ?? pages.size.byDefault;
    if (size !== pages.size.value) {
      return `${name} asks for ${pages.size.name}=${size}, not the ${pages.size.value} asked for: ${link}`;
    }
  }
  return undefined;
}

/** The first member that differs between two items, for the report. */
function describeDifference(want: Item, got: Item): string {
  const names = new Set([...Object.keys(want), ...Object.keys(got)]);
  for (const name of names) {
    if (!(name in got)) return `\`${name}\` is missing`;
    if (!(name in want)) return `\`${name}\` is shown, which this level's whole list does not show`;
    if (!isDeepStrictEqual(want[name], got[name])) {
      return `\`${name}\` is ${JSON.stringify(got[name])}, not ${JSON.stringify(want[name])}`;
    }
  }
  return 'the members are in another shape';
}
