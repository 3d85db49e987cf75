/*
 * netdelay: a delay line for kernels built without sch_netem (bench cluster's fallback).
 *
 *   netdelay QUEUE DELAY_US
 *
 * Takes the packets iptables sends to NFQUEUE queue QUEUE (only their metadata is copied), holds
 * each for DELAY_US microseconds after it arrived, then lets it go on (NF_ACCEPT) — in arrival
 * order, many at a time (a batch verdict releases every packet up to an id). Prints
 * "NETDELAY_READY" once bound, then per second of work nothing; on SIGTERM prints how many packets
 * it held and how late it released them, and exits.
 *
 * Linux only; needs CAP_NET_ADMIN. Runs at real-time priority when it may, so its own wake-ups
 * are not what delays the packets.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nfnetlink_queue.h>
#include <linux/netlink.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define RING (1u << 20)

static uint32_t ids[RING];
static int64_t due[RING];
static uint64_t head, tail;
static volatile sig_atomic_t stopping;
static uint64_t held, late_sum_ns, late_max_ns;

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t) t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void on_term(int sig) {
  (void) sig;
  stopping = 1;
}

/* One nfnetlink queue message: header, nfgenmsg, then attributes appended by add_attr. */
struct msg {
  char buf[256];
  struct nlmsghdr *nh;
};

static void start_msg(struct msg *m, uint16_t type, uint16_t flags, uint16_t queue) {
  memset(m->buf, 0, sizeof m->buf);
  m->nh = (struct nlmsghdr *) m->buf;
  m->nh->nlmsg_len = NLMSG_LENGTH(sizeof(struct nfgenmsg));
  m->nh->nlmsg_type = (NFNL_SUBSYS_QUEUE << 8) | type;
  m->nh->nlmsg_flags = NLM_F_REQUEST | flags;
  struct nfgenmsg *g = NLMSG_DATA(m->nh);
  g->nfgen_family = AF_UNSPEC;
  g->version = NFNETLINK_V0;
  g->res_id = htons(queue);
}

static void add_attr(struct msg *m, uint16_t type, const void *data, uint16_t len) {
  struct nlattr *a = (struct nlattr *) (m->buf + NLMSG_ALIGN(m->nh->nlmsg_len));
  a->nla_type = type;
  a->nla_len = NLA_HDRLEN + len;
  memcpy((char *) a + NLA_HDRLEN, data, len);
  m->nh->nlmsg_len = NLMSG_ALIGN(m->nh->nlmsg_len) + NLA_ALIGN(a->nla_len);
}

static int send_msg(int fd, struct msg *m) {
  struct sockaddr_nl k = {.nl_family = AF_NETLINK};
  return sendto(fd, m->buf, m->nh->nlmsg_len, 0, (struct sockaddr *) &k, sizeof k) < 0 ? -1 : 0;
}

/* Waits for the kernel's answer to a request sent with NLM_F_ACK; 0 when it succeeded. */
static int await_ack(int fd) {
  char buf[8192];
  ssize_t n = recv(fd, buf, sizeof buf, 0);
  if (n < 0) {
    return -1;
  }
  for (struct nlmsghdr *h = (struct nlmsghdr *) buf; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
    if (h->nlmsg_type == NLMSG_ERROR) {
      struct nlmsgerr *e = NLMSG_DATA(h);
      if (e->error != 0) {
        errno = -e->error;
        return -1;
      }
      return 0;
    }
  }
  return 0;
}

/* Lets every packet due by now go on, with one verdict; all of them when draining. */
static void release(int fd, uint16_t queue, int64_t now, int draining) {
  uint64_t last = tail;
  while (head < tail && (draining || due[head % RING] <= now)) {
    int64_t late = now - due[head % RING];
    if (!draining) {
      late_sum_ns += late;
      if (late > (int64_t) late_max_ns) {
        late_max_ns = late;
      }
    }
    last = head++;
  }
  if (last == tail) {
    return;
  }
  struct msg m;
  start_msg(&m, NFQNL_MSG_VERDICT_BATCH, 0, queue);
  struct nfqnl_msg_verdict_hdr v = {.verdict = htonl(NF_ACCEPT), .id = htonl(ids[last % RING])};
  add_attr(&m, NFQA_VERDICT_HDR, &v, sizeof v);
  if (send_msg(fd, &m) < 0) {
    perror("netdelay: verdict");
  }
}

static void take(char *buf, ssize_t n, int64_t delay_ns) {
  int64_t now = now_ns();
  for (struct nlmsghdr *h = (struct nlmsghdr *) buf; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
    if ((h->nlmsg_type & 0xff) != NFQNL_MSG_PACKET || (h->nlmsg_type >> 8) != NFNL_SUBSYS_QUEUE) {
      continue;
    }
    int len = h->nlmsg_len - NLMSG_LENGTH(sizeof(struct nfgenmsg));
    struct nlattr *a = (struct nlattr *) ((char *) NLMSG_DATA(h) + NLMSG_ALIGN(sizeof(struct nfgenmsg)));
    while (len >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= len) {
      if ((a->nla_type & NLA_TYPE_MASK) == NFQA_PACKET_HDR) {
        struct nfqnl_msg_packet_hdr *p = (struct nfqnl_msg_packet_hdr *) ((char *) a + NLA_HDRLEN);
        if (tail - head >= RING) {
          fprintf(stderr, "netdelay: more than %u packets held\n", RING);
          exit(3);
        }
        ids[tail % RING] = ntohl(p->packet_id);
        due[tail % RING] = now + delay_ns;
        tail++;
        held++;
        break;
      }
      len -= NLA_ALIGN(a->nla_len);
      a = (struct nlattr *) ((char *) a + NLA_ALIGN(a->nla_len));
    }
  }
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: netdelay QUEUE DELAY_US\n");
    return 2;
  }
  uint16_t queue = (uint16_t) atoi(argv[1]);
  int64_t delay_ns = atoll(argv[2]) * 1000LL;
  signal(SIGTERM, on_term);
  signal(SIGINT, on_term);
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  struct sched_param sp = {.sched_priority = 10};
  if (sched_setscheduler(0, SCHED_FIFO, &sp) != 0) {
    perror("netdelay: no real-time priority (continuing)");
  }
  int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_NETFILTER);
  struct sockaddr_nl self = {.nl_family = AF_NETLINK};
  if (fd < 0 || bind(fd, (struct sockaddr *) &self, sizeof self) < 0) {
    perror("netdelay: netlink socket");
    return 1;
  }
  int rcvbuf = 16 << 20;
  setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof rcvbuf);
  int one = 1;
  setsockopt(fd, SOL_NETLINK, NETLINK_NO_ENOBUFS, &one, sizeof one);

  struct msg m;
  start_msg(&m, NFQNL_MSG_CONFIG, NLM_F_ACK, queue);
  struct nfqnl_msg_config_cmd bind_cmd = {.command = NFQNL_CFG_CMD_BIND};
  add_attr(&m, NFQA_CFG_CMD, &bind_cmd, sizeof bind_cmd);
  if (send_msg(fd, &m) < 0 || await_ack(fd) < 0) {
    perror("netdelay: bind queue");
    return 1;
  }
  start_msg(&m, NFQNL_MSG_CONFIG, NLM_F_ACK, queue);
  struct nfqnl_msg_config_params params = {.copy_range = htonl(0), .copy_mode = NFQNL_COPY_META};
  add_attr(&m, NFQA_CFG_PARAMS, &params, sizeof params);
  uint32_t maxlen = htonl(100000);
  add_attr(&m, NFQA_CFG_QUEUE_MAXLEN, &maxlen, sizeof maxlen);
  if (send_msg(fd, &m) < 0 || await_ack(fd) < 0) {
    perror("netdelay: queue parameters");
    return 1;
  }
  printf("NETDELAY_READY %u %lld\n", queue, (long long) (delay_ns / 1000));
  fflush(stdout);

  static char buf[1 << 16];
  while (!stopping) {
    int64_t now = now_ns();
    release(fd, queue, now, 0);
    struct timespec wait = {.tv_sec = 1, .tv_nsec = 0};
    if (head < tail) {
      int64_t d = due[head % RING] - now_ns();
      if (d < 0) {
        d = 0;
      }
      wait.tv_sec = d / 1000000000LL;
      wait.tv_nsec = d % 1000000000LL;
    }
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int r = ppoll(&p, 1, &wait, NULL);
    if (r < 0 && errno != EINTR) {
      perror("netdelay: poll");
      return 1;
    }
    if (r > 0) {
      for (;;) {
        ssize_t n = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
        if (n < 0) {
          if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR && errno != ENOBUFS) {
            perror("netdelay: recv");
            return 1;
          }
          break;
        }
        take(buf, n, delay_ns);
      }
    }
  }
  release(fd, queue, now_ns(), 1);
  printf("NETDELAY_DONE packets=%llu late_mean_us=%.1f late_max_us=%.1f\n", (unsigned long long) held,
      held ? late_sum_ns / 1000.0 / held : 0.0, late_max_ns / 1000.0);
  return 0;
}
