/**
 * @module A data operation's answer in its declared envelope (resources/envelope.ts), written as
 * text around the page's JSON: the envelope's fixed text is made once, at start.
 */
import type { Links } from '../query/links.ts';
import type { ItemEnvelope, ListEnvelope, ListPart, MemberPath } from '../resources/envelope.ts';

/** What a list answer holds, each part as its JSON text will show it. */
export interface ListAnswerParts {
  /** The page's records, as the text of a JSON array. */
  readonly items: string;
  readonly links: Links;
  readonly total: number;
  readonly page: number;
  readonly limit: number;
  readonly pages: number;
  /** The first item's place in the whole list, from 0. */
  readonly offset: number;
  /** The cursor of the next page; null on the last. */
  readonly nextCursor: string | null;
  /** The cursor of the page before; null on the first. */
  readonly previousCursor: string | null;
  /** Whether items follow this page in the direction it was asked for (Stripe's rule). */
  readonly hasMore: boolean;
}

export interface EnvelopedAnswer {
  readonly body: string;
  /** Response headers the envelope puts parts in: `Link`, for a bare array. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Fixed text, and the parts between it, in order. */
type Piece = { readonly text: string } | { readonly part: ListPart };

export function listAnswerWriter(
  envelope: ListEnvelope,
): (parts: ListAnswerParts) => EnvelopedAnswer {
  if (envelope.kind === 'none') {
    return (parts) => ({ body: parts.items, headers: { link: linkHeaderOf(parts.links) } });
  }
  const pieces = piecesOf(envelope.parts);
  return (parts) => {
    let body = '';
    for (const piece of pieces) body += 'text' in piece ? piece.text : partText(parts, piece.part);
    return { body };
  };
}

export function itemAnswerWriter(envelope: ItemEnvelope): (record: string) => string {
  if (envelope.kind === 'none') return (record) => record;
  const [open, close] = wrapperOf(envelope.path);
  return (record) => `${open}${record}${close}`;
}

function partText(parts: ListAnswerParts, part: ListPart): string {
  switch (part) {
    case 'items':
      return parts.items;
    case 'links':
      return JSON.stringify(parts.links);
    case 'nextCursor':
      return JSON.stringify(parts.nextCursor);
    case 'previousCursor':
      return JSON.stringify(parts.previousCursor);
    default:
      return String(parts[part]);
  }
}

/** A tree of members, in the order the envelope first names them. */
type Tree = Map<string, Tree | ListPart>;

function piecesOf(parts: readonly (readonly [ListPart, MemberPath])[]): Piece[] {
  const root: Tree = new Map();
  for (const [part, path] of parts) {
    let node = root;
    path.forEach((member, index) => {
      if (index === path.length - 1) {
        node.set(member, part);
        return;
      }
      let child = node.get(member);
      if (typeof child !== 'object') {
        child = new Map();
        node.set(member, child);
      }
      node = child;
    });
  }
  const pieces: Piece[] = [];
  const text = (fixed: string) => {
    const last = pieces.at(-1);
    if (last !== undefined && 'text' in last)
      pieces[pieces.length - 1] = { text: last.text + fixed };
    else pieces.push({ text: fixed });
  };
  const write = (node: Tree) => {
    text('{');
    [...node].forEach(([member, child], index) => {
      text(`${index === 0 ? '' : ','}${JSON.stringify(member)}:`);
      if (typeof child === 'string') pieces.push({ part: child });
      else write(child);
    });
    text('}');
  };
  write(root);
  return pieces;
}

/** The text before and after a record placed at a member path: `{"data":` and `}`. */
function wrapperOf(path: MemberPath): [string, string] {
  return [path.map((member) => `{${JSON.stringify(member)}:`).join(''), '}'.repeat(path.length)];
}

/**
 * The links as an RFC 8288 header: `<url>; rel="first", <url>; rel="last"`, then prev and next
 * where they exist, in the order of a `links` object's members. The URLs are encoded, so none
 * holds `>`.
 */
export function linkHeaderOf(links: Links): string {
  return (['first', 'last', 'prev', 'next'] as const)
    .flatMap((rel) => {
      const url = links[rel];
      return url === null ? [] : [`<${url}>; rel="${rel}"`];
    })
    .join(', ');
}
