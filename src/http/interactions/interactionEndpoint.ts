import { ActorKind } from '../../../cluster/ActorSystem.js';
import { InternalError } from '../../domain/errors.js';
import type { EdgeDeps } from '../EdgeDeps.js';

/** Where an application's HTTP interactions go and the key that signs them. */
export interface ApplicationEndpoint {
  readonly applicationId: string;
  /** interactions_endpoint_url; '' when the application has none (its interactions go over the gateway). */
  readonly url: string;
  /** Ed25519 private key, PKCS#8 PEM: for postSignedInteraction, never for an API answer. */
  readonly signingKeyPem: string;
  /** The public key the endpoint verifies with (the application's verify_key). */
  readonly verifyKey: string;
}

/**
 * The endpoint and signing key of an application, asked of the User actor keyed by the application's
 * id (its bot's, which needs no account record to answer); 404 10002 for an unknown application. It
 * checks no caller: ask only for an application the request was already allowed to act for.
 */
export async function interactionEndpointOf(
  deps: Pick<EdgeDeps, 'system'>,
  applicationId: string,
): Promise<ApplicationEndpoint> {
  const reply = await deps.system.ask(ActorKind.User, applicationId, {
    command: { $case: 'interactionEndpoint', interactionEndpoint: { applicationId } },
  });
  if (reply.reply?.$case !== 'interactionEndpoint') {
    throw new InternalError({ cause: new Error(`interaction_endpoint answered ${reply.reply?.$case ?? 'nothing'}`) });
  }
  return reply.reply.interactionEndpoint;
}
