import { randomBytes } from 'node:crypto';
import { ValidationError } from '../../domain/errors.js';
import { isJsonObject } from '../../domain/jsonValue.js';
import { signatureTimestamp, signInteraction } from '../../domain/interactionSigning.js';
import type { EdgeDeps } from '../EdgeDeps.js';
import { interactionEndpointOf } from './interactionEndpoint.js';
import {
  INTERACTION_TIMEOUT_MS,
  InteractionDeliveryError,
  postInteraction,
  type EndpointAnswer,
} from './signedDelivery.js';

const FIELD = 'interactions_endpoint_url';

/** Discord's refusal of an endpoint that failed the check (400 50035 on the field). */
function notVerified(): ValidationError {
  return ValidationError.field(
    FIELD,
    'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID',
    'The specified interactions endpoint url could not be verified.',
  );
}

/** True when the endpoint answered a PING with 200 and an interaction response of type 1 (PONG). */
function isPong(answer: EndpointAnswer): boolean {
  if (answer.status !== 200) return false;
  try {
    const parsed: unknown = JSON.parse(answer.bodyText);
    return isJsonObject(parsed) && parsed['type'] === 1;
  } catch {
    return false;
  }
}

/** The same signature with one bit flipped: well-formed, and wrong. */
function corrupted(signature: string): string {
  const bytes = Buffer.from(signature, 'hex');
  bytes[0] = (bytes[0] ?? 0) ^ 1;
  return bytes.toString('hex');
}

/**
 * Before an application's interactions endpoint URL is saved, checks it as Discord does: a signed
 * PING must get 200 with `{type: 1}`, and the same PING with a wrong signature must get 401 (an
 * endpoint that does not verify signatures would accept forged interactions). 400 50035 on
 * `interactions_endpoint_url` otherwise, or when the URL is not one Chorus may post to.
 */
export async function verifyInteractionsEndpoint(
  deps: Pick<EdgeDeps, 'system' | 'http' | 'ids'>,
  applicationId: string,
  url: string,
): Promise<void> {
  let target: URL | undefined;
  try {
    target = new URL(url);
  } catch {
    target = undefined;
  }
  if (target === undefined || (target.protocol !== 'http:' && target.protocol !== 'https:')) {
    throw ValidationError.field(FIELD, 'URL_TYPE_INVALID_URL', 'Not a well formed URL.');
  }
  const { signingKeyPem } = await interactionEndpointOf(deps, applicationId);
  const body = JSON.stringify({
    application_id: applicationId,
    id: deps.ids.next(),
    token: randomBytes(32).toString('base64url'),
    type: 1,
    version: 1,
  });
  const timestamp = signatureTimestamp(Date.now());
  const signature = signInteraction(signingKeyPem, timestamp, body);
  try {
    const signed = await postInteraction({ url, body, timestamp, signature }, INTERACTION_TIMEOUT_MS, deps.http);
    if (!isPong(signed)) throw notVerified();
    const forged = { url, body, timestamp, signature: corrupted(signature) };
    if ((await postInteraction(forged, INTERACTION_TIMEOUT_MS, deps.http)).status !== 401) throw notVerified();
  } catch (error) {
    if (error instanceof InteractionDeliveryError) throw notVerified();
    throw error;
  }
}
