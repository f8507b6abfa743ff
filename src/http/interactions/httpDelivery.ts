import { ActorKind } from '../../../cluster/ActorSystem.js';
import { checkCallbackComponents, labelsAsRows } from '../../contract/interaction.js';
import { validate } from '../../contract/validate.js';
import type { InteractionClaims } from '../../domain/interactionTokens.js';
import type { EdgeDeps } from '../EdgeDeps.js';
import { interactionEndpointOf } from './interactionEndpoint.js';
import { INTERACTION_TIMEOUT_MS, postSignedInteraction } from './signedDelivery.js';

/**
 * Delivers an interaction to an application with an `interactions_endpoint_url`, as Discord does: a
 * signed POST of the interaction object, whose answer (an interaction response) is the callback. The
 * answer goes to the interaction's Channel actor as a callback by token would, so its rules hold (one
 * answer, within 3 s). An endpoint that fails, answers non-2xx or not an interaction response leaves the
 * interaction unanswered: the window closes and the user is told it failed.
 */
export async function deliverOverHttp(
  deps: Pick<EdgeDeps, 'system' | 'http'>,
  claims: InteractionClaims,
  token: string,
  interactionJson: string,
): Promise<void> {
  const endpoint = await interactionEndpointOf(deps, claims.applicationId);
  if (endpoint.url === '') return;
  const answer = await postSignedInteraction(
    endpoint.url,
    endpoint.signingKeyPem,
    interactionJson,
    INTERACTION_TIMEOUT_MS,
    deps.http,
  );
  if (answer.status < 200 || answer.status >= 300) return;
  const response = checkCallbackComponents(
    validate('InteractionCallbackSchema', labelsAsRows(JSON.parse(answer.bodyText) as unknown)),
  );
  await deps.system.ask(ActorKind.Channel, claims.channelId, {
    command: {
      $case: 'interactionCallback',
      interactionCallback: {
        caller: undefined,
        interactionId: claims.interactionId,
        applicationId: claims.applicationId,
        token,
        body: JSON.stringify(response),
        op: '',
        messageId: '',
        withResponse: false,
      },
    },
  });
}
