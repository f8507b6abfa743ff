// The Discord web client's SDP rules (voice.md §4a, from discord-userdoccers "WebRTC Connections"), as plain browser
// JavaScript: the fragment a client sends in op 1, and the remote answer it builds from the server's op 4 template.
// Written from the documented rules only, so that a test using it checks the server against the protocol, not
// against the server's own code.

/** Lines of an SDP blob without the trailing empty one. */
function linesOf(sdp) {
  return sdp.split(/\r?\n/).filter((line) => line.length > 0);
}

/** The offer split into its session part and one array of lines per m-section, in order. */
export function sectionsOf(sdp) {
  const session = [];
  const sections = [];
  for (const line of linesOf(sdp)) {
    if (line.startsWith('m=')) sections.push([line]);
    else if (sections.length > 0) sections[sections.length - 1].push(line);
    else session.push(line);
  }
  return { session, sections };
}

/** The payload type the browser chose for a codec (`opus`, `VP8`), or undefined. */
export function payloadTypeOf(sdp, codec) {
  const found = linesOf(sdp)
    .map((line) => /^a=rtpmap:(\d+) ([^/]+)\//.exec(line))
    .find((match) => match !== null && match[2].toLowerCase() === codec.toLowerCase());
  return found ? Number(found[1]) : undefined;
}

/** The payload type of the retransmission codec (a=fmtp:N apt=pt) that repairs `pt`, or undefined. */
export function rtxPayloadTypeOf(sdp, pt) {
  const found = linesOf(sdp)
    .map((line) => /^a=fmtp:(\d+) apt=(\d+)/.exec(line))
    .find((match) => match !== null && Number(match[2]) === pt);
  return found ? Number(found[1]) : undefined;
}

/**
 * The op 1 fragment: only ice-, fingerprint and extmap lines (and extmap-allow-mixed), plus the rtpmap lines of
 * opus, VP8 and VP8's retransmission codec; never m=, c=, a=mid, a=setup, a=ssrc or candidates. Repeated lines
 * (one per bundled m-section) are sent once: the sections share one transport.
 */
export function sdpFragment(sdp) {
  const vp8 = payloadTypeOf(sdp, 'VP8');
  const wanted = new Set(
    [payloadTypeOf(sdp, 'opus'), vp8, rtxPayloadTypeOf(sdp, vp8)].filter((pt) => pt !== undefined),
  );
  const kept = linesOf(sdp).filter((line) => {
    if (/^a=(extmap-allow-mixed|ice-|fingerprint|extmap:)/.test(line)) return true;
    const rtpmap = /^a=rtpmap:(\d+) /.exec(line);
    return rtpmap !== null && wanted.has(Number(rtpmap[1]));
  });
  return [...new Set(kept)].join('\n');
}

/** The fields of the server's op 4 template that the answer reuses (UD "Server SDP Validation"). */
export function parseServerSdp(sdp) {
  const lines = linesOf(sdp);
  const value = (prefix) => {
    const line = lines.find((candidate) => candidate.startsWith(prefix));
    return line === undefined ? undefined : line.slice(prefix.length).trim();
  };
  const connection = value('c=');
  const candidate = value('a=candidate:');
  const parsed = {
    connection,
    ufrag: value('a=ice-ufrag:'),
    pwd: value('a=ice-pwd:'),
    fingerprint: value('a=fingerprint:'),
    candidate,
    rtcp: value('a=rtcp:'),
  };
  const missing = Object.entries(parsed)
    .filter(([key, field]) => key !== 'rtcp' && field === undefined)
    .map(([key]) => key);
  if (missing.length > 0) throw new Error(`server sdp lacks ${missing.join(', ')}: ${JSON.stringify(sdp)}`);
  if (connection.split(' ').length !== 3) throw new Error(`server sdp c= line is not 3 parts: ${connection}`);
  const mLine = value('m=');
  // The candidate's port (`foundation component transport priority ip port typ host`) when m= names none.
  const port = mLine ? Number(mLine.split(' ')[1]) : Number(candidate.split(' ')[5]);
  return { ...parsed, port };
}

const ANSWER_DIRECTION = { sendrecv: 'sendrecv', sendonly: 'recvonly', recvonly: 'sendonly', inactive: 'inactive' };

/**
 * The remote answer for the browser's current offer, built from the server's template: one m-line per offer
 * section in offer order, the server passive (the browser is the DTLS client), the browser's own payload types,
 * and a=ssrc/a=msid for the remote user assigned to each receiving section
 * (`remotes[mid] = {userId, ssrc, rtxSsrc?}`).
 */
export function synthesizeAnswer(offerSdp, server, remotes, version) {
  const { session, sections } = sectionsOf(offerSdp);
  const mids = sections.map((section) => section.find((line) => line.startsWith('a=mid:')).slice(6));
  const out = ['v=0', `o=- 1420070400000 ${version} IN IP4 127.0.0.1`, 's=-', 't=0 0'];
  out.push(`a=group:BUNDLE ${mids.join(' ')}`, 'a=msid-semantic: WMS *', 'a=ice-lite');
  if (session.includes('a=extmap-allow-mixed')) out.push('a=extmap-allow-mixed');
  sections.forEach((section, index) => {
    const mid = mids[index];
    const kind = section[0].slice(2).split(' ')[0];
    const direction = section.find((line) => ANSWER_DIRECTION[line.slice(2)] !== undefined).slice(2);
    const text = section.join('\n');
    const pt = payloadTypeOf(text, kind === 'audio' ? 'opus' : 'VP8');
    const rtx = kind === 'video' ? rtxPayloadTypeOf(text, pt) : undefined;
    out.push(`m=${kind} ${server.port} UDP/TLS/RTP/SAVPF ${pt}${rtx === undefined ? '' : ` ${rtx}`}`);
    out.push(`c=${server.connection}`);
    out.push(`a=rtcp:${server.rtcp ?? server.port}`);
    out.push(`a=ice-ufrag:${server.ufrag}`, `a=ice-pwd:${server.pwd}`, `a=fingerprint:${server.fingerprint}`);
    out.push(`a=candidate:${server.candidate}`, 'a=setup:passive', `a=mid:${mid}`);
    out.push(`a=${ANSWER_DIRECTION[direction]}`, 'a=rtcp-mux');
    out.push(...section.filter((line) => line.startsWith('a=extmap:')));
    if (kind === 'audio') {
      out.push(`a=rtpmap:${pt} opus/48000/2`, `a=fmtp:${pt} minptime=10;useinbandfec=1`);
    } else {
      out.push(`a=rtpmap:${pt} VP8/90000`, `a=rtcp-fb:${pt} nack`, `a=rtcp-fb:${pt} nack pli`);
      out.push(`a=rtcp-fb:${pt} ccm fir`);
      if (rtx !== undefined) out.push(`a=rtpmap:${rtx} rtx/90000`, `a=fmtp:${rtx} apt=${pt}`);
    }
    const remote = remotes[mid];
    if (remote && direction !== 'sendonly' && direction !== 'inactive') {
      const track = `${kind}-${remote.userId}`;
      const ssrcs = remote.rtxSsrc ? [remote.ssrc, remote.rtxSsrc] : [remote.ssrc];
      out.push(`a=msid:${remote.userId} ${track}`);
      if (ssrcs.length > 1) out.push(`a=ssrc-group:FID ${ssrcs.join(' ')}`);
      for (const ssrc of ssrcs) {
        out.push(`a=ssrc:${ssrc} cname:${remote.userId}`, `a=ssrc:${ssrc} msid:${remote.userId} ${track}`);
      }
    }
  });
  return `${out.join('\r\n')}\r\n`;
}

/**
 * The SSRCs the browser sends a section's media with: the first a=ssrc line, and the retransmission SSRC of its
 * a=ssrc-group:FID (0 when there is none).
 */
export function sendingSsrcsOf(offerSdp, mid) {
  const section = sectionsOf(offerSdp).sections.find((lines) => lines.includes(`a=mid:${mid}`)) ?? [];
  const line = section.find((candidate) => candidate.startsWith('a=ssrc:'));
  const fid = section.find((candidate) => candidate.startsWith('a=ssrc-group:FID '));
  return { ssrc: line ? Number(/^a=ssrc:(\d+)/.exec(line)[1]) : 0, rtx: fid ? Number(fid.split(' ')[2]) : 0 };
}
