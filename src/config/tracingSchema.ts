import { Type } from '@sinclair/typebox';
import { Formats, integer, NOT_NEGATIVE, text } from './configLeaves.js';

/**
 * OpenTelemetry traces (issue 14 §5), under the standard OTEL_* names: off unless an OTLP endpoint
 * is set, and then the SDK is loaded and spans go out over OTLP/HTTP (JSON).
 */
export const TracingSchema = Type.Object({
  endpoint: text(
    {
      env: 'OTEL_EXPORTER_OTLP_ENDPOINT',
      description: 'OTLP/HTTP collector base URL (spans go to `<this>/v1/traces`); unset: no traces, SDK not loaded',
      shownDefault: 'none: tracing off',
    },
    '',
    { format: Formats.publicUrl },
  ),
  tracesEndpoint: text(
    {
      env: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
      description: 'full OTLP/HTTP traces URL (wins over `OTEL_EXPORTER_OTLP_ENDPOINT`)',
      shownDefault: 'none',
    },
    '',
    { format: Formats.publicUrl },
  ),
  serviceName: text({ env: 'OTEL_SERVICE_NAME', description: '`service.name` of the spans' }, 'chorus', {
    minLength: 1,
  }),
  scheduleDelayMs: integer(
    { env: 'OTEL_BSP_SCHEDULE_DELAY', description: 'ms finished spans wait to be exported as one batch' },
    5_000,
    NOT_NEGATIVE,
  ),
});
