import assert from 'node:assert/strict';
import { createdAttachments, editedAttachments } from '../../../actors/channel/messageAttachments.js';

const stored = (id: string) => ({
  id,
  filename: `${id}.txt`,
  size: 1,
  url: `http://x/attachments/1/${id}/${id}.txt`,
  proxy_url: `http://x/attachments/1/${id}/${id}.txt`,
  content_type: 'text/plain',
});

describe('message attachments (actor side)', () => {
  it('creates a message with the attachments the edge stored, never bare references', () => {
    assert.deepEqual(createdAttachments([stored('10'), { id: '0', filename: 'a.txt' }]), [stored('10')]);
    assert.deepEqual(createdAttachments(undefined), []);
  });

  it('keeps every attachment when an edit lists none', () => {
    assert.deepEqual(editedAttachments([stored('1'), stored('2')], undefined), {
      attachments: [stored('1'), stored('2')],
      uploaded: 0,
    });
  });

  it('keeps the listed attachments in listed order, appends uploads, and ignores unknown or repeated ids', () => {
    const result = editedAttachments(
      [stored('1'), stored('2'), stored('3')],
      [{ id: '3' }, { id: 2 }, { id: '3' }, { id: '99' }, stored('20')],
    );
    assert.deepEqual(result, { attachments: [stored('3'), stored('2'), stored('20')], uploaded: 1 });
  });
});
