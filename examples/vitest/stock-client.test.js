// A client team's test with vitest: one stockmock per file, on a free port, with its own data.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startStockmock } from 'stockmock';

let mock;
beforeAll(async () => {
  mock = await startStockmock({
    products: [
      { id: 1, name: 'Oak table', quantity: 3 },
      { id: 2, name: 'Beech stool', quantity: 0 },
    ],
    tokens: [{ token: 'test-token', level: 'quantity' }],
  });
});
afterAll(() => mock.close());

test('lists what is out of stock', async () => {
  // Your client, pointed at mock.url, goes here.
  const response = await fetch(`${mock.url}/v1/stock?status=out_of_stock`, {
    headers: { authorization: 'Bearer test-token' },
  });
  expect(await response.json()).toMatchObject({
    data: [{ product_id: 2, quantity: 0, status: 'out_of_stock' }],
  });
  expect(mock.requests({ path: '/v1/stock' })).toHaveLength(1);
});
