/** @module The two readings the interface allows: which one the target uses, and that it keeps to it. */
import type { Check, Failure } from '../check.ts';
import { found } from '../check.ts';
import { describeReading } from '../reading.ts';
import { idTypesIn, idTypesOf, type Decided, type IdType, type IdTypes } from '../stand-in.ts';

/**
 * Rule: one name for the absolute level and one type of product_id throughout (the interface
 * allows either reading, not both). Breaks it: `stock` on lists and `quantity` on items, ids as
 * strings on one level only.
 */
const consistent: Check = {
  id: 'reading.consistent',
  title: 'One name for the absolute level and one type of product_id, throughout',
  level: 'interface',
  source: 'interface: Stock object (notes: `stock` or `quantity`; string or integer)',
  needs: [],
  async run(context) {
    const { stockFields, idTypes } = context.learned.tally;
    if (stockFields.size === 0 && idTypes.size === 0) {
      return { failures: [], skipped: 'no stock item was seen to read its names and types from' };
    }
    const failures: Failure[] = [];
    if (stockFields.size > 1) {
      failures.push({
        message: 'Some stock items name the absolute level `quantity`, others `stock`',
        request: 'GET /v1/stock?limit=100 and its next links (quantity token)',
        actual: [...stockFields]
          .map(([field, count]) => `${field}: ${String(count)} items`)
          .join(', '),
      });
    }
    if (idTypes.size > 1) {
      failures.push({
        message: 'Some stock items give product_id as a string, others as an integer',
        request: 'GET /v1/stock?limit=100 and its next links',
        actual: [...idTypes].map(([type, count]) => `${type}: ${String(count)} items`).join(', '),
      });
    }
    return found(failures, describeReading(context.reading));
  },
};

/** The type of the product records' ids, as most records give it; undefined without records. */
function recordIdType(records: readonly Readonly<Record<string, unknown>>[]): IdType | undefined {
  let strings = 0;
  let integers = 0;
  for (const record of records) {
    if (typeof record['id'] === 'string') strings += 1;
    else if (typeof record['id'] === 'number') integers += 1;
  }
  return strings + integers === 0 ? undefined : strings > integers ? 'string' : 'integer';
}

const article = (type: IdType) => (type === 'string' ? 'a string' : 'an integer');

/**
 * Rule (PRODUCT.md): the reading the stand-in takes: `quantity`, integer ids (or the spec's
 * settings). Breaks it: another reading, correct at the interface level, reported as a difference.
 */
const asStandIn: Check = {
  id: 'reading.stand-in',
  title:
    "The reading of the stand-in: the level named as the spec names it, product_id and the records' id typed as it types them",
  level: 'stand-in',
  source: 'PRODUCT.md: name of the absolute level; type of product_id',
  needs: [],
  async run(context) {
    const seen = context.reading;
    const want = context.standIn.reading;
    const wantIds = idTypesIn(context.standIn.settings.productIdType);
    const { stockFields, idTypes } = context.learned.tally;
    if (stockFields.size === 0 && idTypes.size === 0) {
      return { failures: [], skipped: 'no stock item was seen to read its names and types from' };
    }
    const failures: Failure[] = [];
    if (stockFields.size > 0 && seen.stockField !== want.stockField) {
      failures.push({
        message: `The absolute level is named \`${seen.stockField}\`; the stand-in names it \`${want.stockField}\``,
        expected: want.stockField,
        actual: seen.stockField,
      });
    }
    // The records' ids follow the stock objects' where no record shows one.
    const seenIds: IdTypes = {
      stock: seen.productIdType,
      records: recordIdType(context.learned.products) ?? seen.productIdType,
    };
    if (idTypes.size > 0 && seenIds.stock !== wantIds.stock) {
      failures.push({
        message: `product_id is ${article(seenIds.stock)}; the stand-in's is ${article(wantIds.stock)}`,
        expected: wantIds.stock,
        actual: seenIds.stock,
      });
    }
    if (context.learned.products.length > 0 && seenIds.records !== wantIds.records) {
      failures.push({
        message: `A product record's id is ${article(seenIds.records)}; the stand-in's is ${article(wantIds.records)}`,
        expected: wantIds.records,
        actual: seenIds.records,
      });
    }
    const decided: Decided[] = [];
    if (stockFields.size > 0) {
      const seenField = `the absolute level is named \`${seen.stockField}\``;
      decided.push({ setting: 'stockField', value: seen.stockField, seen: seenField });
    }
    if (idTypes.size > 0) {
      const seenType =
        seenIds.stock === seenIds.records
          ? `product_id is ${article(seenIds.stock)}`
          : `product_id is ${article(seenIds.stock)} in stock objects, a record's id ${article(seenIds.records)}`;
      decided.push({ setting: 'productIdType', value: idTypesOf(seenIds), seen: seenType });
    }
    return { failures, decided };
  },
};

export const readingChecks: readonly Check[] = [consistent, asStandIn];
