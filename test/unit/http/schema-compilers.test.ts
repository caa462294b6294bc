import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { lazySchemas, type LazySchemas } from '../../../engine/http/schema-compilers';
import { startTestEngine, type TestEngine } from '../../helpers/engine';

/**
 * Route schemas compile on first use, and the rest after listen (engine/http/schema-compilers.ts): a real
 * Fastify server on loopback with the engine's Ajv options, and the real engine.
 */

const Person = Type.Object({ name: Type.String({ minLength: 1 }), age: Type.Integer({ minimum: 0 }) });

async function server(schemas: LazySchemas, register: (app: FastifyInstance) => void): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify({
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false } },
    schemaController: { compilersFactory: schemas.compilersFactory },
  });
  register(app);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url };
}

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

let open: FastifyInstance | undefined;
let engine: TestEngine | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
  await engine?.close();
  engine = undefined;
});

describe('lazy route schemas', () => {
  it('compile nothing at ready; a route validates and serializes through them on its first request, then the warm-up compiles the rest', async () => {
    const schemas = lazySchemas();
    const { app, url } = await server(schemas, (app) => {
      app.post('/people', { schema: { body: Person, response: { 200: Type.Object({ greeting: Type.String() }) } } }, async (request) => ({
        greeting: `hello ${(request.body as { name: string }).name}`,
        secret: 'not in the schema, so never sent',
      }));
      app.get('/other/:id', { schema: { params: Type.Object({ id: Type.String({ maxLength: 3 }) }), response: { 200: Type.Object({ id: Type.String() }) } } }, async (request) => request.params);
    });
    open = app;
    // a body validator and a serializer; a params validator and a serializer that GET shares with its HEAD
    // route (the same schema objects) — none compiled yet
    expect(schemas.pending).toBe(4);

    const missing = await post(`${url}/people`, JSON.stringify({ age: 3 }));
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ code: 'FST_ERR_VALIDATION', message: "body must have required property 'name'" });
    // no coercion: "3" is not an integer
    const text = await post(`${url}/people`, JSON.stringify({ name: 'Ada', age: '3' }));
    expect(text.status).toBe(400);
    expect(await text.json()).toMatchObject({ message: 'body/age must be integer' });
    expect(schemas.pending).toBe(3);

    const ok = await post(`${url}/people`, JSON.stringify({ name: 'Ada', age: 36 }));
    expect(ok.status).toBe(200);
    // fast-json-stringify wrote it: the member the schema does not name is left out
    expect(await ok.text()).toBe('{"greeting":"hello Ada"}');
    expect(schemas.pending).toBe(2);

    expect(await schemas.warmUp()).toBe(2);
    expect(schemas.pending).toBe(0);
    const long = await fetch(`${url}/other/abcd`);
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ message: 'params/id must NOT have more than 3 characters' });
    expect(await (await fetch(`${url}/other/abc`)).json()).toEqual({ id: 'abc' });
  });

  it('refuse a headers schema that names a header in capitals, which Node would never deliver', async () => {
    const app = Fastify({ schemaController: { compilersFactory: lazySchemas().compilersFactory } });
    app.post('/x', { schema: { headers: Type.Object({ 'Idempotency-Key': Type.String() }) } }, async () => ({}));
    await expect(app.ready()).rejects.toThrow(/header Idempotency-Key of \/x: header schemas name headers in lower case/);
    await app.close();
  });

  it('a warm-up stopped (the server closing) compiles no more', async () => {
    const schemas = lazySchemas();
    const { app } = await server(schemas, (app) => {
      for (const path of ['/a', '/b', '/c']) app.post(path, { schema: { body: Type.Object({ path: Type.Literal(path) }) } }, async () => ({}));
    });
    open = app;
    const warming = schemas.warmUp();
    schemas.stop();
    expect(await warming).toBe(0);
    expect(schemas.pending).toBe(3);
  });

  it('routes with the same schema object share one compiled validator, each answering with its own errors', async () => {
    const schemas = lazySchemas();
    const { app, url } = await server(schemas, (app) => {
      for (const path of ['/a', '/b']) app.post(path, { schema: { body: Person } }, async () => ({ path }));
    });
    open = app;
    expect(schemas.pending).toBe(1);
    const a = await post(`${url}/a`, JSON.stringify({ name: '', age: 1 }));
    expect(schemas.pending).toBe(0);
    const b = await post(`${url}/b`, JSON.stringify({ name: 'Ada' }));
    expect(await a.json()).toMatchObject({ message: 'body/name must NOT have fewer than 1 characters' });
    expect(await b.json()).toMatchObject({ message: "body must have required property 'age'" });
    expect(await (await post(`${url}/b`, JSON.stringify({ name: 'Ada', age: 1 }))).json()).toEqual({ path: '/b' });
  });

  it("every one of the engine's route schemas compiles once it listens", async () => {
    engine = await startTestEngine();
    const deadline = Date.now() + 30_000;
    while (!engine.logs().includes('route schemas compiled') && !engine.logs().includes('does not compile') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const line = engine.logs().split('\n').find((entry) => entry.includes('route schemas compiled'));
    expect(engine.logs()).not.toContain('does not compile');
    // the v3, v1, simulator and UI routes' distinct validators and serializers
    expect(JSON.parse(line ?? '{}')).toMatchObject({ compiled: expect.any(Number) });
    expect(JSON.parse(line ?? '{}').compiled).toBeGreaterThan(50);
  });
});
