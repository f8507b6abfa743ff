import type { Static } from '@sinclair/typebox';
import type { ActorOptions } from '../../actors/runtime/ActorHost.js';
import type { ClusterOptions } from '../../cluster/ActorSystem.js';
import type { LogLevel } from '../domain/Logger.js';
import type { TracingOptions } from '../tracing/startTracing.js';
import type { BackendSchema } from './backendSchema.js';
import type { ConfigSchema, GatewaySchema, HttpSchema } from './configSchema.js';
import type { InstanceSchema } from './instanceSchema.js';

/** A value nobody may change: objects and arrays read-only all the way down. */
type DeepReadonly<T> = T extends readonly (infer Item)[]
  ? readonly DeepReadonly<Item>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** What GET /policies/instance/ says about the instance (see InstanceSchema). */
export type InstanceOptions = DeepReadonly<Static<typeof InstanceSchema>>;

/** HTTP edge options (see HttpSchema for each one's variable, default and meaning). */
export type HttpOptions = DeepReadonly<Static<typeof HttpSchema>>;

/** Gateway options (see GatewaySchema). */
export type GatewayOptions = DeepReadonly<Static<typeof GatewaySchema>>;

/** Storage and cluster backends (see BackendSchema). */
export type BackendOptions = DeepReadonly<Static<typeof BackendSchema>>;

/** The whole configuration: one frozen object built by loadConfig() from ConfigSchema. */
export type Config = DeepReadonly<Static<typeof ConfigSchema>>;

/** Compile-time checks that the schema yields what the layers owning these options expect. */
type Assignable<T extends U, U> = T;
export type ConfigFitsItsOwners = [
  Assignable<Config['actors'], ActorOptions>,
  Assignable<Config['cluster'], ClusterOptions>,
  Assignable<Config['logLevel'], LogLevel>,
  Assignable<Config['tracing'], TracingOptions>,
];
