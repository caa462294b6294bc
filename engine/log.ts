import type { BaseLogger } from 'pino';

/**
 * The logger the engine's parts take: pino's levels, nothing of Fastify, so sync, printing and use cases stay
 * outside the HTTP layer; Fastify's request and app loggers are pino loggers and fit as they are.
 */
export type Log = Pick<BaseLogger, 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'>;
