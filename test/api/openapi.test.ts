import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../engine/domain/limits';
import { OPERATION_IDS } from '../../engine/http/openapi';
import { SCOPES } from '../../engine/domain/scopes';
import { startTestEngine, type ErrorEnvelope, type TestEngine } from '../helpers/engine';

/**
 * GET /api/v3/openapi.json: public, OpenAPI 3.1, lists every path of spec §4 built so far plus the catalog
 * read side, the catalog import and health, declares the API key on every secured operation, and its
 * schemas say what the server enforces (closed bodies, quantity bounds).
 */

/** the parts of a JSON schema these tests read */
interface Schema {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  required?: string[];
  additionalProperties?: boolean | Schema;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
}
interface Content {
  content?: Record<string, { schema?: Schema }>;
}
interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
  'x-required-scope'?: string;
  requestBody?: Content & { required?: boolean };
  responses?: Record<string, Content>;
  parameters?: { in: string; name: string; required?: boolean; schema?: Schema }[];
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  components?: { securitySchemes?: Record<string, { type: string; in: string; name: string }>; schemas?: Record<string, Schema> };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** the operations the engine has so far, with the scope each one needs (contract §8) */
const EXPECTED: [path: string, method: string, scope: string | undefined][] = [
  ['/api/v3/carts', 'post', 'carts:write'],
  ['/api/v3/carts/{cartId}', 'get', 'carts:write'],
  ['/api/v3/carts/{cartId}', 'patch', 'carts:write'],
  ['/api/v3/carts/{cartId}', 'delete', 'carts:write'],
  ['/api/v3/carts/{cartId}/items', 'post', 'carts:write'],
  ['/api/v3/carts/{cartId}/items/{itemId}', 'patch', 'carts:write'],
  ['/api/v3/carts/{cartId}/items/{itemId}', 'delete', 'carts:write'],
  ['/api/v3/carts/{cartId}/vouchers', 'post', 'carts:write'],
  ['/api/v3/carts/{cartId}/vouchers/{code}', 'delete', 'carts:write'],
  ['/api/v3/locations', 'get', 'catalog:read'],
  ['/api/v3/events', 'get', 'catalog:read'],
  ['/api/v3/occurrences/{occurrenceId}/inventory', 'get', 'catalog:read'],
  ['/api/v3/occurrences/{occurrenceId}/availability', 'get', 'catalog:read'],
  ['/api/v3/catalog', 'put', 'catalog:write'],
  ['/api/v3/health', 'get', undefined],
  ['/api/v3/capabilities', 'get', undefined],
  ['/api/v3/orders/import', 'post', 'orders:import'],
];

/** public on purpose: liveness, and what a terminal asks before it has decided how to talk to its upstream */
const PUBLIC = ['/api/v3/health', '/api/v3/capabilities'];

describe('GET /api/v3/openapi.json', () => {
  let engine: TestEngine;
  let doc: OpenApiDocument;
  let status: number;
  let contentType: string | null;

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => HTTP_METHODS.includes(method))
        .map(([method, operation]) => ({ path, method, operation })),
    );

  /** follows a local `$ref` (the generator may or may not inline schemas) */
  const deref = (schema: Schema | undefined): Schema | undefined => {
    const ref = schema?.$ref;
    if (ref === undefined) return schema;
    const name = ref.replace('#/components/schemas/', '');
    return deref(doc.components?.schemas?.[name]);
  };
  const prop = (schema: Schema | undefined, name: string): Schema | undefined => deref(deref(schema)?.properties?.[name]);

  beforeAll(async () => {
    engine = await startTestEngine();
    const response = await engine.request<OpenApiDocument>('GET', '/openapi.json', { key: null });
    status = response.status;
    contentType = response.headers.get('content-type');
    doc = response.body;
  });
  afterAll(() => engine.close());

  it('answers 200 JSON without a key', () => {
    expect(status).toBe(200);
    expect(contentType).toMatch(/^application\/json/);
  });

  it('answers the same with a wrong key (it is public, not half-authenticated)', async () => {
    const response = await engine.request<OpenApiDocument>('GET', '/openapi.json', { key: 'kassa_wrong' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(doc);
  });

  it('is OpenAPI 3.1 with a title and version', () => {
    expect(doc.openapi).toMatch(/^3\.1(\.\d+)?$/);
    expect(doc.info.title).toMatch(/\S/);
    expect(doc.info.version).toMatch(/\S/);
  });

  it.each(EXPECTED)('lists %s %s', (path, method) => {
    expect(Object.keys(doc.paths)).toContain(path);
    expect(Object.keys(doc.paths[path] ?? {})).toContain(method);
  });

  it('does not list itself', () => {
    expect(Object.keys(doc.paths)).not.toContain('/api/v3/openapi.json');
  });

  it('declares the API key scheme in the header of spec §5', () => {
    const scheme = doc.components?.securitySchemes?.apiKey;
    expect(scheme?.type).toBe('apiKey');
    expect(scheme?.in).toBe('header');
    expect(scheme?.name.toLowerCase()).toBe('x-svc-api-key');
  });

  it.each(EXPECTED.filter(([, , scope]) => scope !== undefined))('%s %s declares security apiKey and scope %s', (path, method, scope) => {
    const operation = doc.paths[path]?.[method];
    expect(operation?.security).toEqual([{ apiKey: [] }]);
    expect(operation?.['x-required-scope']).toBe(scope);
  });

  it('every /api/v3 operation but health and capabilities is secured (also those added later)', () => {
    const api = operations().filter(({ path }) => path.startsWith('/api/v3/'));
    expect(api.length).toBeGreaterThanOrEqual(EXPECTED.length);
    for (const { path, method, operation } of api) {
      if (PUBLIC.includes(path)) {
        expect(operation.security, `${method} ${path}`).toEqual([]);
        continue;
      }
      expect(operation.security, `${method} ${path}`).toEqual([{ apiKey: [] }]);
      expect(SCOPES, `${method} ${path}`).toContain(operation['x-required-scope']);
    }
  });

  it('every operation declares its security: a scheme, or [] when it is public on purpose', () => {
    const undeclared = operations().filter(({ operation }) => operation.security === undefined).map(({ path, method }) => `${method} ${path}`);
    expect(undeclared).toEqual([]);
    const publicOnes = operations().filter(({ operation }) => operation.security?.length === 0).map(({ path, method }) => `${method} ${path}`);
    expect(publicOnes.sort()).toEqual([
      'get /api/v1/migration-guide',
      'get /api/v3/capabilities',
      'get /api/v3/health',
      'get /psp/challenges/{reference}',
      'post /psp/challenges/{reference}',
    ]);
  });

  it('every served operation has its operationId from the one table in engine/http/openapi.ts (a new route must add its own)', () => {
    const missing = operations().filter(({ operation }) => operation.operationId === undefined).map(({ path, method }) => `${method.toUpperCase()} ${path}`);
    expect(missing, 'add these to OPERATION_IDS in engine/http/openapi.ts').toEqual([]);
    for (const { path, method, operation } of operations()) expect(operation.operationId).toBe(OPERATION_IDS[`${method.toUpperCase()} ${path}`]);
  });

  it('operationIds are unique camelCase names, the method names of a generated client', () => {
    const ids = operations().map(({ operation }) => operation.operationId ?? '');
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of Object.values(OPERATION_IDS)) expect(id).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    expect(new Set(Object.values(OPERATION_IDS)).size).toBe(Object.values(OPERATION_IDS).length);
    expect(doc.paths['/api/v3/carts']?.post?.operationId).toBe('createCart');
    expect(doc.paths['/api/v3/orders']?.post?.operationId).toBe('placeOrder');
    expect(doc.paths['/api/v3/orders/{orderId}/cancel']?.post?.operationId).toBe('cancelOrder');
  });

  it('names the server: the engine serving the document (relative)', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it('every operation documents its 4xx answers', () => {
    const missing = operations()
      .filter(({ operation }) => !Object.keys(operation.responses ?? {}).some((code) => /^4(xx|XX|\d\d)$/.test(code)))
      .map(({ path, method }) => `${method} ${path}`);
    expect(missing).toEqual([]);
  });

  it('the documented scope of every secured operation is the one the server asks for', async () => {
    const secured = operations().filter(({ path, operation }) => path.startsWith('/api/v3/') && operation['x-required-scope'] !== undefined);
    for (const { path, method, operation } of secured) {
      const scope = operation['x-required-scope'] ?? '';
      const key = await engine.createKey([scope === 'catalog:read' ? 'orders:read' : 'catalog:read']);
      const concrete = path.replace('/api/v3', '').replace(/\{[^}]+\}/g, 'x');
      const response = await engine.request<ErrorEnvelope>(method.toUpperCase(), concrete, { key, ...(method !== 'get' && method !== 'delete' && { body: {} }) });
      expect({ operation: `${method} ${path}`, status: response.status, requiredScope: response.body.error.details?.requiredScope }).toEqual({
        operation: `${method} ${path}`,
        status: 403,
        requiredScope: scope,
      });
    }
  });

  it('documents the error envelope of spec §7.1 for 4xx answers of secured operations', () => {
    for (const [path, method, scope] of EXPECTED) {
      if (scope === undefined) continue;
      const responses = doc.paths[path]?.[method]?.responses ?? {};
      const errorResponse = responses['4XX'] ?? responses['4xx'];
      const envelope = deref(errorResponse?.content?.['application/json']?.schema);
      expect(deref(envelope)?.required, `${method} ${path}`).toEqual(['error']);
      const error = prop(envelope, 'error');
      expect(error?.required, `${method} ${path}`).toEqual(['type', 'code', 'message']);
      expect(Object.keys(error?.properties ?? {}).sort()).toEqual(['code', 'details', 'message', 'param', 'type']);
    }
  });

  it('documents a 5xx answer (500 INTERNAL_ERROR is possible everywhere) for every secured operation', () => {
    const missing = EXPECTED.filter(([path, method, scope]) => {
      const responses = doc.paths[path]?.[method]?.responses ?? {};
      return scope !== undefined && !Object.keys(responses).some((code) => /^5(xx|XX|\d\d)$/.test(code));
    }).map(([path, method]) => `${method} ${path}`);
    expect(missing).toEqual([]);
  });

  describe('the create-cart request body', () => {
    const body = () => deref(doc.paths['/api/v3/carts']?.post?.requestBody?.content?.['application/json']?.schema);
    const item = () => deref(prop(body(), 'items')?.items);

    it('is required, closed (additionalProperties false) and requires items', () => {
      expect(doc.paths['/api/v3/carts']?.post?.requestBody?.required).toBe(true);
      expect(body()?.type).toBe('object');
      expect(body()?.additionalProperties).toBe(false);
      expect(body()?.required).toEqual(['items']);
      expect(Object.keys(body()?.properties ?? {}).sort()).toEqual(['currency', 'items', 'previousCartId']);
    });

    it(`bounds the item list to 1..${LIMITS.maxItemsPerRequest}`, () => {
      expect(prop(body(), 'items')).toMatchObject({ type: 'array', minItems: 1, maxItems: LIMITS.maxItemsPerRequest });
    });

    it('has closed items requiring the four fields of spec §2.4', () => {
      expect(item()?.additionalProperties).toBe(false);
      expect([...(item()?.required ?? [])].sort()).toEqual(['inventoryItemId', 'occurrenceId', 'priceOptionId', 'quantity']);
    });

    it(`types quantity as an integer from 1 to ${LIMITS.maxQuantity}`, () => {
      expect(prop(item(), 'quantity')).toMatchObject({ type: 'integer', minimum: 1, maximum: LIMITS.maxQuantity });
    });

    it('types currency as a three-letter code', () => {
      const currency = prop(body(), 'currency');
      expect(currency?.type).toBe('string');
      expect(new RegExp(String(currency?.pattern)).test('EUR')).toBe(true);
      expect(new RegExp(String(currency?.pattern)).test('eur')).toBe(false);
      expect(new RegExp(String(currency?.pattern)).test('EURO')).toBe(false);
    });
  });

  it.each([
    ['/api/v3/carts/{cartId}', 'patch', ['currency']],
    ['/api/v3/carts/{cartId}/items', 'post', ['items']],
    ['/api/v3/carts/{cartId}/items/{itemId}', 'patch', ['quantity']],
    ['/api/v3/carts/{cartId}/vouchers', 'post', ['code']],
    ['/api/v3/catalog', 'put', ['events', 'locations']],
  ])('the %s %s body is closed and requires %j', (path, method, required) => {
    const schema = deref(doc.paths[path]?.[method]?.requestBody?.content?.['application/json']?.schema);
    expect(schema?.additionalProperties).toBe(false);
    expect([...(schema?.required ?? [])].sort()).toEqual(required);
  });

  it('the change-quantity body bounds quantity like create-cart does', () => {
    const schema = deref(doc.paths['/api/v3/carts/{cartId}/items/{itemId}']?.patch?.requestBody?.content?.['application/json']?.schema);
    expect(prop(schema, 'quantity')).toMatchObject({ type: 'integer', minimum: 1, maximum: LIMITS.maxQuantity });
  });

  it('documents the path parameters of the item path', () => {
    const parameters = doc.paths['/api/v3/carts/{cartId}/items/{itemId}']?.patch?.parameters ?? [];
    expect(parameters.filter((p) => p.in === 'path').map((p) => [p.name, p.required])).toEqual([
      ['cartId', true],
      ['itemId', true],
    ]);
  });

  it('states the engine decisions the spec leaves open (limits, extra error codes)', () => {
    const description = doc.info.description ?? '';
    expect(description).toContain(`at most ${LIMITS.maxItemsPerRequest} items per request`);
    expect(description).toContain(`from 1 to ${LIMITS.maxQuantity}`);
    for (const code of ['BODY_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'MALFORMED_REQUEST', 'HOST_NOT_ALLOWED', 'ORIGIN_NOT_ALLOWED']) expect(description).toContain(code);
    expect(description).toMatch(/admin.{0,20}grants every scope/);
  });
});
