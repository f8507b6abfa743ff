import { Type } from '@sinclair/typebox';
import { text } from './configLeaves.js';

/** Operator access (issue 14 §6): the routes `chorus` calls on a running node. */
export const OperatorSchema = Type.Object({
  adminToken: text(
    {
      env: 'CHORUS_ADMIN_TOKEN',
      description:
        'operator routes (`/api/v10/-/admin/...`, used by `chorus rights`) also accept `Authorization: Bearer <this>`',
      shownDefault: 'none: OPERATOR users only',
    },
    '',
  ),
});
