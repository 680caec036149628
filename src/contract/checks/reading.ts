/** @module The two readings the interface allows: which one the target uses, and that it keeps to it. */
import type { Check, Failure } from '../check.ts';
import { found } from '../check.ts';
import { describeReading } from '../reading.ts';
import type { Decided } from '../stand-in.ts';

const consistent: Check = {
  id: 'reading.consistent',
  title: 'One name for the absolute level and one type of product_id, throughout',
  level: 'interface',
  source: 'interface: Stock object (notes: `stock` or `quantity`; string or integer)',
  needs: [],
  async run(context) {
    const { stockFields, idTypes } = context.learned.tally;
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

const asStandIn: Check = {
  id: 'reading.stand-in',
  title:
    'The reading of the stand-in: the level named as the spec names it, product_id typed as it types it',
  level: 'stand-in',
  source: 'PRODUCT.md: name of the absolute level; type of product_id',
  needs: [],
  async run(context) {
    const seen = context.reading;
    const want = context.standIn.reading;
    const { stockFields, idTypes } = context.learned.tally;
    const failures: Failure[] = [];
    if (stockFields.size > 0 && seen.stockField !== want.stockField) {
      failures.push({
        message: `The absolute level is named \`${seen.stockField}\`; the stand-in names it \`${want.stockField}\``,
        expected: want.stockField,
        actual: seen.stockField,
      });
    }
    if (idTypes.size > 0 && seen.productIdType !== want.productIdType) {
      failures.push({
        message: `product_id is ${seen.productIdType === 'string' ? 'a string' : 'an integer'}; the stand-in's is ${want.productIdType === 'string' ? 'a string' : 'an integer'}`,
        expected: want.productIdType,
        actual: seen.productIdType,
      });
    }
    const decided: Decided[] = [];
    if (stockFields.size > 0) {
      const seenField = `the absolute level is named \`${seen.stockField}\``;
      decided.push({ setting: 'stockField', value: seen.stockField, seen: seenField });
    }
    if (idTypes.size > 0) {
      const seenType = `product_id is ${seen.productIdType === 'string' ? 'a string' : 'an integer'}`;
      decided.push({ setting: 'productIdType', value: seen.productIdType, seen: seenType });
    }
    return { failures, decided };
  },
};

export const readingChecks: readonly Check[] = [consistent, asStandIn];
