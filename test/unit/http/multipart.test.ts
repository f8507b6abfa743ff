import assert from 'node:assert/strict';
import { ValidationError } from '../../../src/domain/errors.js';
import { parseMultipart } from '../../../src/http/multipart.js';

/** Encodes a form the way fetch does, and parses it back. */
async function roundTrip(form: FormData) {
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  const contentType = request.headers.get('content-type') ?? '';
  return parseMultipart(Buffer.from(await request.arrayBuffer()), contentType);
}

describe('parseMultipart', () => {
  it('returns text fields by name and file parts with their bytes intact', async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0x0d, 0x0a, 0x2d, 0x2d]);
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'image/png' }), 'a.png');
    form.append('name', 'wave');
    form.append('payload_json', '{"content":"hi"}');
    const { fields, files } = await roundTrip(form);
    assert.equal(fields.get('name'), 'wave');
    assert.equal(fields.get('payload_json'), '{"content":"hi"}');
    assert.equal(files.length, 1);
    assert.equal(files[0]?.field, 'file');
    assert.equal(files[0]?.filename, 'a.png');
    assert.equal(files[0]?.contentType, 'image/png');
    assert.deepEqual(files[0]?.data, bytes);
  });

  it('keeps a boundary-like run inside a part that does not start a line', () => {
    const body = Buffer.from(
      '--XyZ\r\nContent-Disposition: form-data; name="note"\r\n\r\nsee --XyZ here\r\n--XyZ--\r\n',
      'utf8',
    );
    const { fields } = parseMultipart(body, 'multipart/form-data; boundary=XyZ');
    assert.equal(fields.get('note'), 'see --XyZ here');
  });

  it('reads an empty body as no parts', () => {
    const { fields, files } = parseMultipart(Buffer.alloc(0), 'multipart/form-data; boundary=abc');
    assert.equal(fields.size, 0);
    assert.equal(files.length, 0);
  });

  it('refuses a body without its boundary, or a content type without one (50035)', () => {
    assert.throws(() => parseMultipart(Buffer.from('hello'), 'multipart/form-data; boundary=abc'), ValidationError);
    assert.throws(() => parseMultipart(Buffer.from('hello'), 'multipart/form-data'), ValidationError);
  });

  it('refuses more than 64 parts', () => {
    const part = '--b\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n';
    const body = Buffer.from(`${part.repeat(65)}--b--\r\n`);
    assert.throws(() => parseMultipart(body, 'multipart/form-data; boundary=b'), ValidationError);
  });
});
