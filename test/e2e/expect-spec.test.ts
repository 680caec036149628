import { describe, expect, it } from 'vitest';
import { validatorFor } from '../helpers/expect-spec.ts';

const json = { 'content-type': 'application/json; charset=utf-8' };
const problemJson = { 'content-type': 'application/problem+json' };
const links = {
  first: 'http://localhost:4010/v1/stock?limit=10&page=1',
  last: 'http://localhost:4010/v1/stock?limit=10&page=1',
  prev: null,
  next: null,
};

describe('the spec helper', () => {
  it.each([
    ['a status-level stock list', { data: [{ product_id: 1, status: 'available' }], links }],
    [
      'a quantity-level item with unknown quantity',
      { data: [{ product_id: 1, quantity: null, status: 'on_request' }], links },
    ],
    ['an empty page', { data: [], links }],
  ])('accepts %s', async (_title, body) => {
    const findings = (await validatorFor()).validate('GET', '/v1/stock', {
      status: 200,
      headers: json,
      body,
    });
    expect(findings).toEqual([]);
  });

  it.each([
    ['a stock item with an unknown status', { data: [{ product_id: 1, status: 'sold' }], links }],
    [
      'a status item that leaks quantity and a stray member',
      { data: [{ product_id: 1, status: 'available', stock: 3 }], links },
    ],
    [
      'a negative quantity',
      { data: [{ product_id: 1, quantity: -1, status: 'available' }], links },
    ],
    ['a product_id as a string', { data: [{ product_id: '1', status: 'available' }], links }],
    [
      'links without next',
      { data: [], links: { first: links.first, last: links.last, prev: null } },
    ],
    ['an extra envelope member', { data: [], links, meta: {} }],
    [
      'more than 100 items',
      {
        data: Array.from({ length: 101 }, (_, i) => ({ product_id: i + 1, status: 'available' })),
        links,
      },
    ],
  ])('rejects %s', async (_title, body) => {
    const findings = (await validatorFor()).validate('GET', '/v1/stock', {
      status: 200,
      headers: json,
      body,
    });
    expect(findings).not.toEqual([]);
  });

  it('rejects a status the operation does not declare, such as a 500', async () => {
    const body = { type: 'x', title: 'x', status: 500, detail: 'x' };
    const findings = (await validatorFor()).validate('GET', '/v1/stock', {
      status: 500,
      headers: problemJson,
      body,
    });
    expect(findings.map((f) => f.code)).toContain('status');
  });

  it('rejects a JSON error body that is not a problem document', async () => {
    const findings = (await validatorFor()).validate('GET', '/v1/stock/1', {
      status: 404,
      headers: json,
      body: { error: 'not found' },
    });
    expect(findings).not.toEqual([]);
  });

  it('rejects a 401 without WWW-Authenticate', async () => {
    const body = {
      type: 'urn:problem-type:stockmock:unauthorized',
      title: 'Unauthorized',
      status: 401,
      detail: 'x',
    };
    const findings = (await validatorFor()).validate('GET', '/v1/stock', {
      status: 401,
      headers: problemJson,
      body,
    });
    expect(findings).not.toEqual([]);
    const withHeader = (await validatorFor()).validate('GET', '/v1/stock', {
      status: 401,
      headers: { ...problemJson, 'www-authenticate': 'Bearer realm="stockmock"' },
      body,
    });
    expect(withHeader).toEqual([]);
  });

  it('judges a method the path lacks as the 405 response, Allow header included', async () => {
    const body = {
      type: 'urn:problem-type:stockmock:method-not-allowed',
      title: 'Method not allowed',
      status: 405,
      detail: 'x',
    };
    const validator = await validatorFor();
    expect(
      validator.validate('POST', '/v1/stock', {
        status: 405,
        headers: { ...problemJson, allow: 'GET' },
        body,
      }),
    ).toEqual([]);
    expect(
      validator.validate('POST', '/v1/stock', { status: 405, headers: problemJson, body }),
    ).not.toEqual([]);
    expect(
      validator.validate('POST', '/v1/stock', { status: 200, headers: json, body: {} }),
    ).not.toEqual([]);
  });
});
