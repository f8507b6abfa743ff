import { Type } from '@sinclair/typebox';
import { Formats, text } from './configLeaves.js';

/**
 * What GET /policies/instance/ tells clients about this instance (Spacebar's instance document; clients show it
 * on their login and server-picker pages). Empty text is answered as null: not set.
 */
export const InstanceSchema = Type.Object({
  name: text({ env: 'CHORUS_INSTANCE_NAME', description: 'the instance name clients show' }, 'Chorus', {
    minLength: 1,
  }),
  description: text(
    { env: 'CHORUS_INSTANCE_DESCRIPTION', description: 'a line about the instance', shownDefault: 'none' },
    '',
  ),
  frontPage: text(
    { env: 'CHORUS_INSTANCE_FRONT_PAGE', description: 'URL of the instance front page', shownDefault: 'none' },
    '',
    { format: Formats.publicUrl },
  ),
  tosPage: text(
    { env: 'CHORUS_INSTANCE_TOS_PAGE', description: 'URL of the terms of service', shownDefault: 'none' },
    '',
    { format: Formats.publicUrl },
  ),
  correspondenceEmail: text(
    { env: 'CHORUS_INSTANCE_EMAIL', description: "the operators' contact email", shownDefault: 'none' },
    '',
  ),
});
