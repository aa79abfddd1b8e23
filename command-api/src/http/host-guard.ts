import { networkInterfaces, hostname as machineName } from 'node:os';
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHandler } from 'express';
import { isLoopbackHost, type Config } from '@evo/infra';

export const HOST_MESSAGE = 'Requête refusée : ce serveur ne répond pas à ce nom d’hôte.';
/** 421 Misdirected Request: the request reached a server that does not serve that name */
export const HOST_REFUSED_STATUS = 421;

/** A Host header's name, lower-cased, without its port (IPv6 keeps its brackets off). */
export function hostName(host: string | undefined): string | undefined {
  if (!host) return undefined;
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end > 0 ? h.slice(1, end) : undefined;
  }
  const colon = h.indexOf(':');
  const name = colon >= 0 ? h.slice(0, colon) : h;
  return name.replace(/\.$/, '') || undefined;
}

const WILDCARDS = new Set(['0.0.0.0', '::', '']);
/** how long the machine's own addresses are trusted before they are read again (DHCP, VPNs) */
const INTERFACES_TTL_MS = 30_000;
/** an unknown name reads them again, at most this often (a new lease since the last read) */
const INTERFACES_RECHECK_MS = 5_000;

/**
 * The names this product answers to (DNS rebinding, issue 29 item 4): a page of another site
 * whose name was made to resolve to this machine sends its own name as Host, and its Origin
 * matches it, so the CSRF guard alone lets it through. Served names: loopback names always
 * (`localhost`, 127.0.0.0/8, ::1); the names of PUBLIC_URL and ALLOWED_HOSTS; HOST itself when it
 * names one interface; and when HOST listens on every interface (0.0.0.0, ::) or on a LAN address,
 * this machine's addresses and its name (`<name>`, `<name>.local`), which a phone on the LAN uses.
 */
export class ServedHosts {
  private readonly fixed = new Set<string>();
  private readonly byInterfaces: boolean;
  private interfaces = new Set<string>();
  private interfacesAt = 0;

  constructor(config: Pick<Config, 'HOST' | 'allowedHosts'>) {
    for (const h of config.allowedHosts) this.fixed.add(h);
    const host = config.HOST.trim().toLowerCase();
    this.byInterfaces = WILDCARDS.has(host) || !isLoopbackHost(host);
    if (!WILDCARDS.has(host)) this.fixed.add(host.replace(/^\[|\]$/g, ''));
    if (this.byInterfaces) {
      const name = machineName().toLowerCase();
      this.fixed.add(name);
      this.fixed.add(`${name.split('.')[0]}.local`);
    }
  }

  private machineAddresses(now: number, maxAgeMs = INTERFACES_TTL_MS): Set<string> {
    if (now - this.interfacesAt > maxAgeMs) {
      const found = new Set<string>();
      for (const list of Object.values(networkInterfaces()))
        for (const a of list ?? []) found.add(a.address.toLowerCase().replace(/%.*$/, ''));
      this.interfaces = found;
      this.interfacesAt = now;
    }
    return this.interfaces;
  }

  /** Whether a request carrying this Host header is for this product. */
  serves(hostHeader: string | undefined, now = Date.now()): boolean {
    const name = hostName(hostHeader);
    if (!name) return false;
    if (isLoopbackHost(name) || this.fixed.has(name)) return true;
    if (!this.byInterfaces) return false;
    return this.machineAddresses(now).has(name) || this.machineAddresses(now, INTERFACES_RECHECK_MS).has(name);
  }

  /** The Socket.IO handshake's side of it. */
  servesHeaders(headers: IncomingHttpHeaders): boolean {
    return this.serves(headers.host);
  }
}

/** Refuses, before any route, a request whose Host names no one this product serves. */
export function hostGuard(hosts: ServedHosts): RequestHandler {
  return (req, res, next) => {
    if (hosts.serves(req.headers.host)) return next();
    res.status(HOST_REFUSED_STATUS).json({ error: HOST_MESSAGE });
  };
}
