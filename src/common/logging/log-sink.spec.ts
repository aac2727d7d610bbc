import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LogSink } from './log-sink';

describe('LogSink', () => {
  it('drops and counts lines a full device refuses, tells once, and keeps going', () => {
    const fd = fs.openSync('/dev/full', 'w');
    const notices: string[] = [];
    try {
      const sink = new LogSink(fd, (line) => notices.push(line));
      for (let i = 0; i < 3; i++) sink.write(`{"msg":"line ${i}"}\n`);
      expect(sink.dropped).toEqual(new Map([['ENOSPC', 3]]));
      expect(notices).toHaveLength(1);
      expect(JSON.parse(notices[0])).toMatchObject({ level: 'error', reason: 'ENOSPC', msg: expect.stringMatching(/dropped/) });
    } finally {
      fs.closeSync(fd);
    }
  });

  it('writes whole lines in order to a file, and says how many were lost once lines get through again', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-sink-')), 'log');
    const fd = fs.openSync(file, 'w');
    const recovered: Array<[number, string]> = [];
    const sink = new LogSink(fd, () => undefined);
    sink.onRecovered = (dropped, reason) => recovered.push([dropped, reason]);
    sink.write('one\n');
    // The sink's own drop path, as a write error reports it (a file cannot be made to refuse on demand here).
    (sink as unknown as { drop(reason: string): void }).drop('ENOSPC');
    sink.write('two\n');
    fs.closeSync(fd);
    expect(fs.readFileSync(file, 'utf8')).toBe('one\ntwo\n');
    expect(recovered).toEqual([[1, 'ENOSPC']]);
    fs.rmSync(path.dirname(file), { recursive: true });
  });

  it('after EPIPE or a closed descriptor stops trying and only counts', () => {
    const fd = 1_000_000; // never open: a closed descriptor, without the risk of its number being reused
    const sink = new LogSink(fd, () => undefined);
    sink.write('a\n');
    sink.write('b\n');
    expect(sink.dropped).toEqual(new Map([['EBADF', 2]]));
  });
});
