"""Straightforward float64 NumPy references of each optimizer's update, from the papers
and Chainer's documented formulas (not from minichainer's code)."""
import math

import numpy as np


def sgd(p, g, s, t, lr=0.01):
    return p - lr * g


def momentum_sgd(p, g, s, t, lr=0.01, momentum=0.9):
    v = s.get('v', np.zeros_like(p))
    v = momentum * v - lr * g
    s['v'] = v
    return p + v


def corrected_momentum_sgd(p, g, s, t, lr=0.01, momentum=0.9):
    v = s.get('v', np.zeros_like(p))
    v = momentum * v - g
    s['v'] = v
    return p + lr * v


def nesterov_ag(p, g, s, t, lr=0.01, momentum=0.9):
    v = s.get('v', np.zeros_like(p))
    v = momentum * v - lr * g
    s['v'] = v
    return p + momentum ** 2 * v - (1 + momentum) * lr * g


def ada_grad(p, g, s, t, lr=0.001, eps=1e-8):
    h = s.get('h', np.zeros_like(p)) + g * g
    s['h'] = h
    return p - lr * g / (np.sqrt(h) + eps)


def ada_delta(p, g, s, t, rho=0.95, eps=1e-6):
    msg = rho * s.get('msg', np.zeros_like(p)) + (1 - rho) * g * g
    msdx = s.get('msdx', np.zeros_like(p))
    dx = np.sqrt((msdx + eps) / (msg + eps)) * g
    s['msg'] = msg
    s['msdx'] = rho * msdx + (1 - rho) * dx * dx
    return p - dx


def rmsprop(p, g, s, t, lr=0.01, alpha=0.99, eps=1e-8, eps_inside_sqrt=False):
    ms = alpha * s.get('ms', np.zeros_like(p)) + (1 - alpha) * g * g
    s['ms'] = ms
    denom = np.sqrt(ms + eps) if eps_inside_sqrt else np.sqrt(ms) + eps
    return p - lr * g / denom


def rmsprop_graves(p, g, s, t, lr=1e-4, alpha=0.95, momentum=0.9, eps=1e-4):
    n = alpha * s.get('n', np.zeros_like(p)) + (1 - alpha) * g * g
    gg = alpha * s.get('g', np.zeros_like(p)) + (1 - alpha) * g
    delta = momentum * s.get('delta', np.zeros_like(p)) - lr * g / np.sqrt(n - gg * gg + eps)
    s.update(n=n, g=gg, delta=delta)
    return p + delta


def smorms3(p, g, s, t, lr=0.001, eps=1e-16):
    mem = s.get('mem', np.ones_like(p))
    r = 1 / (mem + 1)
    gg = (1 - r) * s.get('g', np.zeros_like(p)) + r * g
    g2 = (1 - r) * s.get('g2', np.zeros_like(p)) + r * g * g
    x = gg * gg / (g2 + eps)
    p = p - g * np.minimum(x, lr) / (np.sqrt(g2) + eps)
    s.update(mem=1 + mem * (1 - x), g=gg, g2=g2)
    return p


def adam(p, g, s, t, alpha=0.001, beta1=0.9, beta2=0.999, eps=1e-8, eta=1.0,
         weight_decay_rate=0, amsgrad=False, adabound=False, final_lr=0.1, gamma=1e-3):
    m = s.get('m', np.zeros_like(p))
    v = s.get('v', np.zeros_like(p))
    m = beta1 * m + (1 - beta1) * g
    v = beta2 * v + (1 - beta2) * g * g
    s['m'], s['v'] = m, v
    if amsgrad:
        vhat = np.maximum(s.get('vhat', np.zeros_like(p)), v)
        s['vhat'] = vhat
    else:
        vhat = v
    alpha_t = alpha * math.sqrt(1 - beta2 ** t) / (1 - beta1 ** t)
    step = alpha_t / (np.sqrt(vhat) + eps)
    if adabound:
        lower = final_lr * (1 - 1 / (gamma * t + 1))
        upper = final_lr * (1 + 1 / (gamma * t))
        step = np.clip(step, lower, upper)
    return p - eta * (step * m + weight_decay_rate * p)


def msvag(p, g, s, t, lr=0.1, beta=0.9, eta=1.0, weight_decay_rate=0):
    bp = beta ** t
    rho = min(((1 - beta) ** 2) * (1 - bp ** 2) / (((1 - bp) ** 2) * (1 - beta ** 2)),
              0.9999)
    m = beta * s.get('m', np.zeros_like(p)) + (1 - beta) * g
    v = beta * s.get('v', np.zeros_like(p)) + (1 - beta) * g * g
    s['m'], s['v'] = m, v
    mt, vt = m / (1 - bp), v / (1 - bp)
    var = (vt - mt ** 2) / (1 - rho)
    with np.errstate(invalid='ignore', divide='ignore'):
        factor = np.clip(mt ** 2 / (mt ** 2 + rho * var), 0, 1)
    factor = np.where(np.isnan(factor), 0, factor)
    return p - eta * (lr * mt * factor + weight_decay_rate * p)
