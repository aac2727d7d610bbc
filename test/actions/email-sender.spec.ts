import { AddressInfo, createServer, Socket } from 'node:net';
import { AppConfig } from '../../src/common/config/app-config';
import { EmailSender } from '../../src/modules/actions/delivery/email-sender';

/**
 * A small SMTP server that keeps the subjects it is given, except for a message to held@example.com: that
 * recipient is answered one continuation line at a time, forever. Every wait for a byte is short, so the
 * transport's own timeouts never fire, and only a limit on the whole exchange ends it.
 */
async function startSmtp() {
  const sockets = new Set<Socket>();
  const subjects: string[] = [];
  let onHeldClosed!: () => void;
  const heldClosed = new Promise<void>((resolve) => (onHeldClosed = resolve));
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.write('220 smtp.test ESMTP\r\n');
    let trickle: NodeJS.Timeout | undefined;
    socket.on('close', () => {
      sockets.delete(socket);
      if (trickle) onHeldClosed();
      clearInterval(trickle);
    });
    let buffered = '';
    let inData = false;
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      for (;;) {
        if (inData) {
          const end = buffered.indexOf('\r\n.\r\n');
          if (end < 0) return;
          subjects.push(/^Subject: (.*)$/m.exec(buffered.slice(0, end))?.[1].trim() ?? '');
          buffered = buffered.slice(end + 5);
          inData = false;
          socket.write('250 queued\r\n');
          continue;
        }
        const eol = buffered.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffered.slice(0, eol).toUpperCase();
        buffered = buffered.slice(eol + 2);
        if (line.startsWith('RCPT TO:<HELD@')) {
          trickle = setInterval(() => socket.write('250-still thinking\r\n'), 20);
          return;
        } else if (line.startsWith('DATA')) {
          inData = true;
          socket.write('354 go on\r\n');
        } else if (line.startsWith('QUIT')) socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`,
    subjects,
    heldClosed,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('EmailSender', () => {
  it('ends a message the server holds past the time limit and closes its connection, while the pool sends the others', async () => {
    const smtp = await startSmtp();
    const sender = new EmailSender({ actions: { smtpUrl: smtp.url, smtpFrom: 'veritrail@example.com' } } as unknown as AppConfig);
    try {
      const send = (to: string, subject: string) => sender.send([to], { subject, text: 'body' }, {}, 500);
      const [slow, next] = await Promise.all([send('held@example.com', 'held'), send('ops@example.com', 'sent')]);
      expect(slow).toEqual({ ok: false, statusCode: null, error: 'timed out after 500 ms' });
      expect(next).toEqual({ ok: true, statusCode: null, error: null });
      // The held connection is closed: the server cannot take that message after the attempt gave up on it.
      await smtp.heldClosed;
      expect(smtp.subjects).toEqual(['sent']);
    } finally {
      sender.onApplicationShutdown();
      await smtp.close();
    }
  });
});
