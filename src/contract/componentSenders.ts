import { checkMessageComponents, type MessageComponentRows } from './componentRules.js';

/**
 * Who sends a message, for what becomes of its components on Discord: an application (a bot account, an
 * interaction response or followup, a webhook an application owns) sends any; a user account's are dropped
 * without an error; a webhook no application owns has them dropped unless the request says
 * `with_components=true`, and then may send non-interactive ones (link buttons) only.
 */
export type ComponentSender =
  | { readonly kind: 'application' }
  | { readonly kind: 'user' }
  | { readonly kind: 'webhook'; readonly withComponents: boolean };

/**
 * Applies the sender's rule to a schema-valid message body in place (drops `components`, or checks them and
 * keeps each component's own fields) and returns it; throws ValidationError (400 50035) naming each broken
 * component field. A body without components is returned as it is.
 */
export function componentsFromSender<B extends { components?: MessageComponentRows | undefined }>(
  body: B,
  sender: ComponentSender,
): B {
  if (body.components === undefined) return body;
  const dropped = sender.kind === 'user' || (sender.kind === 'webhook' && !sender.withComponents);
  if (dropped) {
    delete body.components;
    return body;
  }
  body.components = checkMessageComponents(body.components, { interactive: sender.kind === 'application' });
  return body;
}
