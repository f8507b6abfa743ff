import { isIPv4 } from 'node:net';

/** IP discovery packets are 74 bytes: type, length (70), ssrc, a 64-byte NUL-terminated address, a port. */
export const DISCOVERY_PACKET_BYTES = 74;
const REQUEST_TYPE = 1;
const RESPONSE_TYPE = 2;
const BODY_LENGTH = 70;
const ADDRESS_OFFSET = 8;
const ADDRESS_FIELD_BYTES = 64;

/** The ssrc of a well-formed discovery request, or undefined when the datagram is not one. */
export function parseDiscoveryRequest(packet: Uint8Array): number | undefined {
  if (packet.length !== DISCOVERY_PACKET_BYTES) return undefined;
  const view = Buffer.from(packet.buffer, packet.byteOffset, packet.length);
  if (view.readUInt16BE(0) !== REQUEST_TYPE || view.readUInt16BE(2) !== BODY_LENGTH) return undefined;
  return view.readUInt32BE(4);
}

/** A discovery request for an ssrc (what a client sends). */
export function discoveryRequest(ssrc: number): Buffer {
  const packet = Buffer.alloc(DISCOVERY_PACKET_BYTES);
  packet.writeUInt16BE(REQUEST_TYPE, 0);
  packet.writeUInt16BE(BODY_LENGTH, 2);
  packet.writeUInt32BE(ssrc >>> 0, 4);
  return packet;
}

/** The reply telling a client the IPv4 address and port its request came from. */
export function discoveryResponse(ssrc: number, address: string, port: number): Buffer {
  if (!isIPv4(address)) throw new RangeError(`IP discovery answers IPv4 only, got ${address}`);
  const packet = Buffer.alloc(DISCOVERY_PACKET_BYTES);
  packet.writeUInt16BE(RESPONSE_TYPE, 0);
  packet.writeUInt16BE(BODY_LENGTH, 2);
  packet.writeUInt32BE(ssrc >>> 0, 4);
  packet.write(address, ADDRESS_OFFSET, ADDRESS_FIELD_BYTES - 1, 'ascii');
  packet.writeUInt16BE(port, DISCOVERY_PACKET_BYTES - 2);
  return packet;
}

/** Reads a discovery reply as a client does, or undefined when the datagram is not one. */
export function parseDiscoveryResponse(
  packet: Uint8Array,
): { ssrc: number; address: string; port: number } | undefined {
  if (packet.length !== DISCOVERY_PACKET_BYTES) return undefined;
  const view = Buffer.from(packet.buffer, packet.byteOffset, packet.length);
  if (view.readUInt16BE(0) !== RESPONSE_TYPE) return undefined;
  const field = view.subarray(ADDRESS_OFFSET, ADDRESS_OFFSET + ADDRESS_FIELD_BYTES);
  const end = field.indexOf(0);
  const address = field.subarray(0, end === -1 ? field.length : end).toString('ascii');
  return { ssrc: view.readUInt32BE(4), address, port: view.readUInt16BE(DISCOVERY_PACKET_BYTES - 2) };
}
