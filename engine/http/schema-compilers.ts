import { createRequire } from 'node:module';
import type AjvCompiler from '@fastify/ajv-compiler';
import type SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

/**
 * Fastify's own compilers (Ajv for what comes in, fast-json-stringify for what goes out), compiling each route's
 * schemas on first use instead of all at `ready`. Compiling the ~60 routes' schemas took 0.4–0.5 s of every start
 * on 2 cores, before the engine could listen; now it listens first, and `warmUp` compiles what no request
 * has compiled yet, one schema per turn of the event loop, so a request never waits behind the whole batch.
 * A request that comes before its route is warm compiles that route's schema itself (a few ms, once). Ajv and
 * fast-json-stringify themselves load with the first schema compiled (`require`, as compiling is synchronous).
 *
 * What is compiled is the very same: the same compilers with the same options, the same validator and
 * serializer functions, byte for byte the same answers; only the moment moves.
 */

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type BuildValidator = ReturnType<typeof AjvCompiler>;
type CompiledValidator = ReturnType<ReturnType<BuildValidator>>;
/** What Fastify calls and reads of a compiled validator: the call, `errors` after a failed one, `schemaEnv` to pass the parent data. */
interface Validator {
  (data: unknown, context?: Parameters<CompiledValidator>[1]): unknown;
  errors?: CompiledValidator['errors'];
  schemaEnv?: CompiledValidator['schemaEnv'];
}

export interface LazySchemas {
  readonly compilersFactory: CompilersFactory;
  /** compiles every schema not compiled yet, one per event-loop turn; resolves with how many it compiled */
  warmUp(): Promise<number>;
  /** stops a warm-up under way (the server is closing) */
  stop(): void;
  /** schemas registered and not compiled yet */
  readonly pending: number;
}

const require = createRequire(import.meta.url);
const loadAjvCompiler = (): typeof AjvCompiler => require('@fastify/ajv-compiler');
const loadSerializerSelector = (): typeof SerializerSelector => require('@fastify/fast-json-stringify-compiler');

export function lazySchemas(): LazySchemas {
  const pending = new Set<() => unknown>();
  let stopped = false;
  /**
   * One pool of each compiler for the whole server, as Fastify's own default keeps: the pool hands every
   * plugin context with the same options and shared schemas the same Ajv instance (and serializer compiler).
   * A pool per context made an Ajv instance per plugin context (12), each compiling the JSON Schema
   * meta-schema again: the warm-up took 0.55–0.64 s on an idle engine, 0.35–0.38 s with one pool.
   */
  let validatorPool: ReturnType<typeof AjvCompiler> | undefined;
  let serializerPool: ReturnType<typeof SerializerSelector> | undefined;
  /** `compile` once, on the first call of the answer, or when the warm-up reaches it */
  const once = <T>(compile: () => T): (() => T) => {
    let compiled: { value: T } | undefined;
    const get = (): T => {
      if (!compiled) {
        compiled = { value: compile() };
        pending.delete(get);
      }
      return compiled.value;
    };
    pending.add(get);
    return get;
  };
  /**
   * One compiled function per schema object and compiler: routes share their schemas (the error envelope of
   * every route, a GET and its HEAD), and what Ajv and fast-json-stringify make of a schema depends on nothing
   * else — 168 serializers were 45 different ones.
   */
  const sharedOnce = <T>(byObject: WeakMap<object, () => T>, schema: unknown, compile: () => T): (() => T) => {
    if (typeof schema !== 'object' || schema === null) return once(compile);
    let get = byObject.get(schema);
    if (!get) {
      get = once(compile);
      byObject.set(schema, get);
    }
    return get;
  };
  const schemaOf = (route: unknown): unknown => (typeof route === 'object' && route !== null && 'schema' in route ? route.schema : undefined);

  const buildValidator: BuildValidator = (externalSchemas, ajvOptions) => {
    // Ajv itself (an instance per option set, with its formats) is made with the first schema compiled.
    const compiler = once(() => (validatorPool ??= loadAjvCompiler()())(externalSchemas, ajvOptions));
    pending.delete(compiler);
    // Fastify calls this with its route definition ({ schema, method, url, httpPart }), which the types of
    // @fastify/ajv-compiler describe as Ajv's own compile(schema); so do ours, passing it on unchanged.
    const validators = new WeakMap<object, () => Validator>();
    return (route) => {
      assertLowerCaseHeaders(route);
      const validator = sharedOnce(validators, schemaOf(route), (): Validator => compiler()(route));
      const validate: Validator = (data, context) => {
        const compiled = validator();
        const valid = compiled(data, context);
        validate.errors = compiled.errors;
        return valid;
      };
      // Fastify passes the parent data (for a root value Ajv may replace) to a validator that has a schemaEnv.
      Object.defineProperty(validate, 'schemaEnv', { get: () => validator().schemaEnv });
      return validate as CompiledValidator;
    };
  };

  const buildSerializer: SerializerFactory = (externalSchemas, serializerOptions) => {
    const compiler = once(() => (serializerPool ??= loadSerializerSelector()())(externalSchemas, serializerOptions));
    pending.delete(compiler);
    const serializers = new WeakMap<object, () => (data: unknown) => string>();
    return (route) => {
      const serializer = sharedOnce(serializers, route.schema, () => compiler()(route));
      return (data: unknown) => serializer()(data);
    };
  };

  return {
    compilersFactory: { buildValidator, buildSerializer } satisfies CompilersFactory,
    get pending() {
      return pending.size;
    },
    warmUp: async () => {
      let compiled = 0;
      while (!stopped && pending.size > 0) {
        // Between two schemas the event loop runs: requests, timers, I/O.
        await new Promise<void>((resolve) => setImmediate(resolve));
        const [next] = pending;
        if (stopped || !next) break;
        next();
        compiled += 1;
      }
      return compiled;
    },
    stop: () => {
      stopped = true;
    },
  };
}

/**
 * Fastify lower-cases the names in a headers schema for its default compiler but leaves a custom compiler's
 * alone (and Node lower-cases every header it receives), so a header named in capitals here would never be
 * seen: refused when the route is registered instead.
 */
function assertLowerCaseHeaders(route: unknown): void {
  if (typeof route !== 'object' || route === null || !('httpPart' in route) || route.httpPart !== 'headers' || !('schema' in route)) return;
  const { schema } = route;
  const names = typeof schema === 'object' && schema !== null && 'properties' in schema && typeof schema.properties === 'object' && schema.properties !== null ? Object.keys(schema.properties) : [];
  const named = names.find((name) => name !== name.toLowerCase());
  if (named !== undefined) throw new Error(`header ${named} of ${'url' in route ? String(route.url) : 'a route'}: header schemas name headers in lower case`);
}
