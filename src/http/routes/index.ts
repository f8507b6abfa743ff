import type { Router } from '@koa/router';
import type { EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { instanceRoutes } from './instanceRoutes.js';

/** Adds one resource's routes to the API router. */
export type RouteModule = (router: Router<EdgeState>, deps: EdgeDeps) => void;

/** Every resource's routes, in mount order. */
export const ROUTE_MODULES: readonly RouteModule[] = [instanceRoutes];
