// Loaded with `--import` (NODE_OPTIONS accepts it where it refuses --cpu-prof): profiles the process between
// two SIGUSR2 signals (the load, not the start-up) and writes CHORUS_CPU_PROFILE (a .cpuprofile file) at the
// second. Used by bench/profileHttp.ts.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const file = process.env.CHORUS_CPU_PROFILE;
if (file) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  let running = false;
  process.on('SIGUSR2', () => {
    if (!running) {
      session.post('Profiler.start');
      running = true;
      return;
    }
    running = false;
    session.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(file, JSON.stringify(result.profile));
    });
  });
}
