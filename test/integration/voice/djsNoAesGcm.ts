// Preloaded (node --import) into the discord.js voice bots' process for the XChaCha variant: @discordjs/voice
// picks aead_aes256_gcm_rtpsize whenever node:crypto lists aes-256-gcm (read once, when it loads), so hiding that
// cipher makes the real library choose aead_xchacha20_poly1305_rtpsize, the mode Discord calls required.
import crypto from 'node:crypto';

const listed = crypto.getCiphers.bind(crypto);
crypto.getCiphers = () => listed().filter((cipher) => cipher !== 'aes-256-gcm');
