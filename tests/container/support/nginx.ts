import { execFile, spawn, type ChildProcess } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The documented example configuration (README.md, Production). */
export const EXAMPLE_CONFIG = path.resolve(import.meta.dirname, "../../../deploy/nginx/weatherbot.conf");

export type Certificate = { certFile: string; keyFile: string; pem: string };

/** A self-signed certificate for 127.0.0.1 and localhost (openssl), the test's only trust anchor. */
export async function selfSignedCertificate(dir: string): Promise<Certificate> {
  const certFile = path.join(dir, "cert.pem");
  const keyFile = path.join(dir, "key.pem");
  await run("openssl", [
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-days",
    "2",
    "-subj",
    "/CN=weatherbot.test",
    "-addext",
    "subjectAltName=IP:127.0.0.1,DNS:localhost",
    "-keyout",
    keyFile,
    "-out",
    certFile,
  ]);
  return { certFile, keyFile, pem: await readFile(certFile, "utf8") };
}

/** Replaces `pattern` in `text`, which must match exactly `times` times: the example and this test stay in step. */
function replaceExactly(text: string, pattern: RegExp, replacement: string, times: number): string {
  const found = text.match(new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`))?.length ?? 0;
  if (found !== times) throw new Error(`deploy/nginx/weatherbot.conf: expected ${times} match(es) of ${pattern}, found ${found}`);
  return text.replace(new RegExp(pattern.source, `${pattern.flags.replace("g", "")}g`), replacement);
}

/**
 * The example configuration with only its CHANGE lines replaced: the upstream's servers, the listening
 * addresses (loopback, free ports) and the certificate.
 */
export function configFromExample(
  example: string,
  options: { upstreams: string[]; httpPort: number; httpsPort: number; cert: Certificate },
) {
  let config = example;
  config = replaceExactly(config, /^( *)server 127\.0\.0\.1:300[12] [^\n]*\n/m, "", 2);
  config = replaceExactly(
    config,
    /^upstream weatherbot \{\n((?: *#[^\n]*\n)*)/m,
    `upstream weatherbot {\n$1${options.upstreams.map((upstream) => `    server ${upstream} max_fails=3 fail_timeout=10s;\n`).join("")}`,
    1,
  );
  config = replaceExactly(config, /^ *listen \[::\]:(80|443)[^\n]*\n/m, "", 2);
  config = replaceExactly(config, /listen 80;/, `listen 127.0.0.1:${options.httpPort};`, 1);
  config = replaceExactly(config, /listen 443 ssl http2;/, `listen 127.0.0.1:${options.httpsPort} ssl http2;`, 1);
  config = replaceExactly(config, /ssl_certificate \S+;/, `ssl_certificate ${options.cert.certFile};`, 1);
  config = replaceExactly(config, /ssl_certificate_key \S+;/, `ssl_certificate_key ${options.cert.keyFile};`, 1);
  return config;
}

export type Nginx = {
  /** https://127.0.0.1:PORT */
  url: string;
  httpPort: number;
  dir: string;
  accessLog: () => Promise<string>;
  stop: () => Promise<void>;
};

function waitForPort(port: number, child: ChildProcess, errorLog: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null) {
        void readFile(errorLog, "utf8")
          .catch(() => "")
          .then((log) => reject(new Error(`nginx exited (${child.exitCode}):\n${log}`)));
        return;
      }
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve();
      });
      socket.once("error", () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`nginx did not listen on ${port} within ${timeoutMs} ms`));
        else setTimeout(attempt, 100);
      });
    };
    attempt();
  });
}

/**
 * Debian's nginx, not the system service: its own prefix, pid, logs and temporary files in a fresh
 * directory, in the foreground as this process's child, with the example configuration included.
 * The response header X-Test-Upstream (this test's, not the example's) names the container that answered.
 */
export async function startNginx(options: { upstreams: string[]; httpsPort: number; httpPort: number; cert: Certificate }): Promise<Nginx> {
  const dir = await mkdtemp(path.join(tmpdir(), "weatherbot-nginx-"));
  // nginx's workers (user nobody) write temporary files under the prefix.
  await chmod(dir, 0o755);
  for (const temp of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) await mkdir(path.join(dir, temp), { mode: 0o777 });
  const example = await readFile(EXAMPLE_CONFIG, "utf8");
  await writeFile(path.join(dir, "weatherbot.conf"), configFromExample(example, options));
  const errorLog = path.join(dir, "error.log");
  await writeFile(
    path.join(dir, "nginx.conf"),
    [
      "daemon off;",
      "worker_processes 1;",
      `pid ${dir}/nginx.pid;`,
      `error_log ${errorLog} info;`,
      "events { worker_connections 512; }",
      "http {",
      `  access_log ${dir}/access.log;`,
      ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((temp) => `  ${temp}_temp_path ${dir}/${temp};`),
      "  add_header X-Test-Upstream $upstream_addr always;",
      `  include ${dir}/weatherbot.conf;`,
      "}",
      "",
    ].join("\n"),
  );
  const args = ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", errorLog];
  try {
    await run("nginx", [...args, "-t", "-q"]);
  } catch (error) {
    const { stderr = "" } = error as { stderr?: string };
    throw new Error(`nginx -t refused the configuration:\n${stderr}${await readFile(errorLog, "utf8").catch(() => "")}`);
  }
  const child = spawn("nginx", args, { stdio: "ignore" });
  await waitForPort(options.httpsPort, child, errorLog);
  return {
    url: `https://127.0.0.1:${options.httpsPort}`,
    httpPort: options.httpPort,
    dir,
    accessLog: () => readFile(path.join(dir, "access.log"), "utf8"),
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        // SIGQUIT: nginx's graceful stop; its workers go with it.
        child.kill("SIGQUIT");
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
