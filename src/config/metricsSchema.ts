import { Type } from '@sinclair/typebox';
import { text } from './configLeaves.js';

/** GET /metrics (issue 14 §4): Discord has no such route, so the operator decides who may read it. */
export const MetricsSchema = Type.Object({
  enabled: Type.Union([Type.Literal('on'), Type.Literal('off')], {
    env: 'CHORUS_METRICS',
    description: 'serve Prometheus metrics at `GET /metrics` on the HTTP port (off: 404, nothing recorded)',
    default: 'on',
  }),
  token: text(
    {
      env: 'CHORUS_METRICS_TOKEN',
      description: '`GET /metrics` requires `Authorization: Bearer <this>` (401 without it)',
      shownDefault: 'none: open to anyone reaching the port',
    },
    '',
  ),
});
