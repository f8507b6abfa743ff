import type { InteractionEndpointRequest, UserReply } from '../../proto/gen/chorus/v1/user.js';
import { UnknownEntityError } from '../../src/domain/errors.js';
import { newInteractionKeyPair } from '../../src/domain/interactionSigning.js';
import type { ApplicationRecord } from '../runtime/ports/records.js';
import type { ApplicationStore } from '../runtime/ports/stores.js';

/**
 * The application with its Ed25519 key pair. One stored before interactions were signed has a
 * random `verify_key` that belongs to no private key: it gets a real pair now, saved before anyone
 * sees the new public key (the application record is a JSON document on both engines, so the new
 * field needed no migration).
 */
export async function withSigningKey(
  applications: ApplicationStore,
  app: ApplicationRecord,
): Promise<ApplicationRecord> {
  if (app.signing_key !== undefined) return app;
  const keys = newInteractionKeyPair();
  const keyed: ApplicationRecord = { ...app, verify_key: keys.verifyKey, signing_key: keys.signingKeyPem };
  await applications.update(keyed);
  return keyed;
}

/** The application's interactions endpoint URL, or '' when it has none. */
export function endpointUrlOf(app: ApplicationRecord): string {
  const url = app.extra['interactions_endpoint_url'];
  return typeof url === 'string' ? url : '';
}

/**
 * interaction_endpoint (edge-internal): where the application's HTTP interactions go and the key
 * that signs them; 404 10002 for an unknown application. No caller is checked: the edge asks it only
 * after its own checks (the owner changing the URL, or an interaction already validated).
 */
export async function interactionEndpoint(
  applications: ApplicationStore,
  { applicationId }: InteractionEndpointRequest,
): Promise<UserReply> {
  const stored = applicationId === '' ? undefined : await applications.get(applicationId);
  if (!stored) throw new UnknownEntityError('application');
  const app = await withSigningKey(applications, stored);
  return {
    reply: {
      $case: 'interactionEndpoint',
      interactionEndpoint: {
        applicationId: app.id,
        url: endpointUrlOf(app),
        signingKeyPem: app.signing_key ?? '',
        verifyKey: app.verify_key,
      },
    },
  };
}
