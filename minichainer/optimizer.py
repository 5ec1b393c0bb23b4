"""Optimizers, per-parameter update rules and hyperparameters (`chainer.optimizer`).

An [`Optimizer`][minichainer.optimizer.Optimizer] owns a target [`Link`][minichainer.link.Link]; a
[`GradientMethod`][minichainer.optimizer.GradientMethod] gives each parameter of the target an
[`UpdateRule`][minichainer.optimizer.UpdateRule] whose
[`Hyperparameter`][minichainer.optimizer.Hyperparameter] falls back to the optimizer's, so that
`optimizer.lr = 0.1` changes every parameter while `param.update_rule.hyperparam.lr = 0.5` overrides
one.

Deliberate difference from Chainer: update rules compute in place (`out=`) with one
scratch buffer per parameter that lives as long as the rule, instead of allocating
temporaries at every step. The scratch buffer is not part of
[`UpdateRule.state`][minichainer.optimizer.UpdateRule.state] and is never serialized.
"""
import collections
import copy
import itertools
import math
import warnings

import numpy

from minichainer import backend
from minichainer import initializers
from minichainer import link as link_module
from minichainer import optimizer_hooks
from minichainer import serializer as serializer_module
from minichainer import variable

_VALID_TIMINGS = ('pre', 'post', 'auto')


class HyperparameterChanges:
    """The process-wide count of hyperparameter changes (`.value`).

    Every `Hyperparameter` assignment or deletion, of any optimizer, gives it a new
    value; `UpdateRule.hyperparam_values` caches the values it read under the count it
    saw, so a step reads the hyperparameters again only after something changed.
    """

    __slots__ = ('value', '_counter')

    def __init__(self):
        self._counter = itertools.count(1)
        self.value = 0

    def bump(self):
        """Record a change (a new value, also when threads bump at once)."""
        self.value = next(self._counter)


hyperparameter_changes = HyperparameterChanges()


class Hyperparameter:
    """A set of hyperparameter entries that falls back to a parent set.

    Reading an attribute missing here reads it from the parent (typically the optimizer's
    hyperparameter), so one assignment on the parent reaches every update rule while each
    rule may still override an entry for its own parameter.

    Args:
        parent (Hyperparameter): The parent hyperparameter, or None.
    """

    def __init__(self, parent=None):
        self._parent = parent

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        hyperparameter_changes.bump()

    def __delattr__(self, name):
        object.__delattr__(self, name)
        hyperparameter_changes.bump()

    def __getattr__(self, name):
        if '_parent' not in self.__dict__:
            raise AttributeError('_parent is not set up yet')
        parent = self._parent
        if parent is None:
            raise AttributeError(
                'Hyperparameter has no entry {!r}'.format(name))
        return getattr(parent, name)

    def __repr__(self):
        d = self.get_dict()
        return 'Hyperparameter({})'.format(
            ', '.join('{}={}'.format(k, d[k]) for k in sorted(d)))

    @property
    def parent(self):
        """The parent hyperparameter (None at the root)."""
        return self._parent

    def get_dict(self):
        """Return every visible entry (own entries override the parent's) as a dict."""
        d = {} if self._parent is None else self._parent.get_dict()
        for k, v in self.__dict__.items():
            if k != '_parent':
                d[k] = v
        return d


class _DuplicateHookError(KeyError, ValueError):
    """A hook name registered twice on an update rule (Chainer 6 raised ValueError,
    Chainer 7 KeyError; this is both)."""

    def __str__(self):
        return str(self.args[0]) if self.args else ''


_ndarray = numpy.ndarray


def _param_dtype(param):
    try:
        return param.dtype
    except RuntimeError:  # uninitialized and no dtype known
        return None


def _resolve_hook_name(hook, name):
    if name is not None:
        return name
    name = getattr(hook, 'name', None)
    if name is None:
        name = getattr(hook, '__name__', None)
    if name is None:
        raise ValueError(
            'add_hook: the hook {!r} has no name attribute; pass name='.format(hook))
    return name


def _check_timing(owner, timing):
    if timing not in _VALID_TIMINGS:
        raise ValueError(
            "{}.add_hook: timing must be one of 'pre', 'post', 'auto', got {!r}"
            .format(owner, timing))


def _register_hook(owner, pre_hooks, post_hooks, hook, name, timing,
                   invalid_timing_fallback):
    """The one registry rule of `UpdateRule.add_hook` and `Optimizer.add_hook`.

    A hook must be callable and have a name (`name`, else `hook.name`, else
    `hook.__name__`); `timing` is `'pre'`, `'post'` or `'auto'` (the hook's `timing`
    attribute, `'pre'` without one).  With `'auto'` and an attribute that is neither,
    the optimizer (`invalid_timing_fallback`) warns and runs the hook before the update,
    an update rule after it, as in Chainer.  A name registered twice raises
    `_DuplicateHookError` (a `KeyError`, Chainer 7's error, and a `ValueError`).
    """
    if not callable(hook):
        raise TypeError('{}.add_hook: hook must be callable, got {!r}'.format(owner, hook))
    _check_timing(owner, timing)
    if timing == 'auto':
        timing = getattr(hook, 'timing', 'pre')
        if timing not in ('pre', 'post') and invalid_timing_fallback:
            warnings.warn("Hook timing attribute not in ('pre', 'post'), "
                          "defaulting timing to 'pre'.")
            timing = 'pre'
    name = _resolve_hook_name(hook, name)
    if name in pre_hooks or name in post_hooks:
        raise _DuplicateHookError('{}.add_hook: hook "{}" already exists'.format(owner, name))
    if timing == 'pre':
        pre_hooks[name] = hook
    else:
        post_hooks[name] = hook


def _unregister_hook(pre_hooks, post_hooks, name):
    # KeyError when `name` is registered in neither.
    try:
        del pre_hooks[name]
    except KeyError:
        del post_hooks[name]


class UpdateRule:
    """How one parameter is updated from its gradient; base class of all update rules.

    Subclasses implement [`update_core_cpu`][minichainer.optimizer.UpdateRule.update_core_cpu] (and
    [`update_core_gpu`][minichainer.optimizer.UpdateRule.update_core_gpu] for other array modules)
    and, when they keep a state such as moving averages,
    [`init_state`][minichainer.optimizer.UpdateRule.init_state], which fills
    [`state`][minichainer.optimizer.UpdateRule.state] on the first update.

    Args:
        parent_hyperparam (Hyperparameter): Hyperparameter providing the default values.

    Attributes:
        enabled (bool): When False, [`update`][minichainer.optimizer.UpdateRule.update] leaves the
            parameter untouched.
        hyperparam (Hyperparameter): The rule's own hyperparameter (its parent is the
            optimizer's).
        t (int): Number of updates made by this rule.
        is_elementwise (bool): True when the rule updates each element from that
            element alone (class attribute; False here, True for the built-in rules).
    """

    is_elementwise = False

    def __init__(self, parent_hyperparam=None):
        self._pre_update_hooks = collections.OrderedDict()
        self._post_update_hooks = collections.OrderedDict()
        self._state = None
        self.enabled = True
        self.hyperparam = Hyperparameter(parent_hyperparam)
        self.t = 0
        self._use_fp32_update = False
        self._fp32_param = None
        self._scratch = None
        self._hyperparam_cache = None

    @property
    def state(self):
        """The state dictionary (None until the first update or a load)."""
        return self._state

    def add_hook(self, hook, name=None, timing='auto'):
        """Register a hook `hook(rule, param)` called before or after each update.

        Args:
            hook (callable): The hook.
            name (str): Registration name; defaults to `hook.name` or `hook.__name__`.
            timing (str): `'pre'`, `'post'` or `'auto'` (the hook's `timing`
                attribute, `'pre'` when it has none).

        Raises:
            TypeError: `hook` is not callable.
            ValueError: unknown timing or missing name.
            KeyError: the name is already registered (also a `ValueError`).
        """
        # As in Chainer, a hook whose timing attribute is neither 'pre' nor 'post' runs
        # after the update here (the optimizer's registry warns and runs it before).
        _register_hook('UpdateRule', self._pre_update_hooks, self._post_update_hooks,
                       hook, name, timing, invalid_timing_fallback=False)

    def remove_hook(self, name):
        """Unregister the hook registered as `name` (KeyError when there is none)."""
        _unregister_hook(self._pre_update_hooks, self._post_update_hooks, name)

    def update(self, param):
        """Run the pre-update hooks, update `param` in place, run the post-update hooks.

        Does nothing when `enabled` is False. Increments `t`.
        """
        if not self.enabled:
            return
        self.t += 1
        if self._use_fp32_update and _param_dtype(param) == numpy.float16:
            self._update_fp32(param)
            return
        array = param.array
        # _prepare's work is needed only for a new state or one on another device
        if array is not None and not (self._state_home == 'cpu' and type(array) is _ndarray
                                      and self._state is not None):
            self._prepare(param)
        loss_scale = variable.grad_loss_scale(param)
        if loss_scale is not None:
            param.grad /= loss_scale
        for hook in self._pre_update_hooks.values():
            hook(self, param)
        self.update_core(param)
        for hook in self._post_update_hooks.values():
            hook(self, param)

    def _update_fp32(self, param):
        array = param.array
        fp32_param = self._fp32_param
        if fp32_param is None or (fp32_param.array is None and array is not None):
            if array is None:  # an uninitialized float16 parameter
                fp32_param = variable.Parameter(initializers.NaN(numpy.float32),
                                                name=param.name)
            else:
                fp32_param = variable.Variable(array.astype(numpy.float32),
                                               name=param.name)
            self._fp32_param = fp32_param
        # an uninitialized parameter has no gradient to convert (its ``grad`` may not be
        # readable yet, as in Chainer), so only an initialized one's is read
        grad = None if array is None else param.grad
        fp32_param.grad = None if grad is None else grad.astype(numpy.float32)
        if fp32_param.array is not None:
            self._prepare(fp32_param)
        loss_scale = variable.grad_loss_scale(param)
        if loss_scale is not None and fp32_param.grad is not None:
            fp32_param.grad /= loss_scale
        for hook in self._pre_update_hooks.values():
            hook(self, fp32_param)
        self.update_core(fp32_param)
        for hook in self._post_update_hooks.values():
            hook(self, fp32_param)
        if array is not None:
            array[...] = fp32_param.array
        fp32_param.grad = None

    def update_core(self, param):
        """Update `param`; dispatches to
        [`update_core_cpu`][minichainer.optimizer.UpdateRule.update_core_cpu] for NumPy arrays."""
        array = param.array
        if array is None or isinstance(array, numpy.ndarray):
            self.update_core_cpu(param)
        else:
            self.update_core_gpu(param)

    def update_core_cpu(self, param):
        """Update a parameter held in a NumPy array (to be overridden)."""
        raise NotImplementedError

    def update_core_gpu(self, param):
        """Update a parameter held in a non-NumPy array (to be overridden)."""
        raise NotImplementedError

    def update_core_chainerx(self, param):
        """Update a ChainerX parameter; ChainerX is not available in minichainer."""
        raise RuntimeError(
            '{}.update_core_chainerx: ChainerX arrays are not supported by minichainer'
            .format(type(self).__name__))

    def init_state(self, param):
        """Fill [`state`][minichainer.optimizer.UpdateRule.state] for `param`; called once before
        the first update."""
        pass

    def hyperparam_values(self, names):
        """Return `tuple(getattr(self.hyperparam, n) for n in names)`, cached until
        any hyperparameter is set (reading through the parent chain at every step is
        the main Python overhead of an update)."""
        hp = self.hyperparam
        cache = self._hyperparam_cache
        version = hyperparameter_changes.value
        if cache is not None and cache[0] is hp and cache[1] == version and \
                cache[2] is names:
            return cache[3]
        values = tuple([getattr(hp, name) for name in names])
        self._hyperparam_cache = (hp, version, names, values)
        return values

    def get_scratch(self, param, dtype=None, n=1):
        """Return this rule's persistent scratch buffer for `param` (allocated once).

        With `n == 1` it is one array shaped like the parameter; with `n > 1` a tuple
        of `n` such arrays (views of one buffer). The dtype is `dtype` or the
        parameter's. The buffer is reallocated only when the parameter's shape or dtype
        changes. Hooks may use the buffer too while no update is running.
        """
        array = param.array
        if dtype is None:
            dtype = array.dtype
        views = self._scratch
        if (views is None or len(views) != n or views[0].shape != array.shape
                or views[0].dtype != dtype):
            xp = backend.get_array_module(array)
            buf = xp.empty((n,) + array.shape, dtype=dtype)
            views = self._scratch = tuple(buf[i, ...] for i in range(n))
        return views[0] if n == 1 else views

    # The names these had before they were public (subclasses outside minichainer).
    _get_scratch = get_scratch
    _hyperparam_values = hyperparam_values

    def serialize(self, serializer):
        """Save or load `t` and the state entries (not the parameter itself).

        When loading into a rule whose state is not initialized yet, the entries that
        [`init_state`][minichainer.optimizer.UpdateRule.init_state] would create are read; if they
        are missing the state is left None so that it is initialized at the next update. Missing
        entries raise `KeyError` unless the rule is disabled or was saved before its first update
        (`t == 0`; Chainer raises in that case too).
        """
        self.t = serializer('t', self.t)
        if self.state is None:
            if isinstance(serializer, serializer_module.Deserializer):
                self._state = {}
                self_copy = copy.copy(self)
                arr = numpy.empty(1, dtype=numpy.float32)
                self_copy.init_state(variable.Variable(arr, grad=arr))
                for key in list(self._state):
                    try:
                        value = serializer(key, None)
                    except KeyError:
                        # a disabled rule, or one saved before its first update (which
                        # has no state; Chainer raises there), starts with a fresh state
                        if self.enabled and self.t != 0:
                            raise
                        value = None
                    if value is None:
                        self._state = None
                        break
                    self._state[key] = value
                self._state_home = None  # host arrays; moved to the parameter's device
        else:
            for key in self._state:
                self._state[key] = serializer(key, self._state[key])

    # Where the state arrays live: 'cpu', or the Device of the parameter they were made
    # or last moved for; None when unknown (just loaded from a snapshot).
    _state_home = None

    def _prepare(self, param):
        """Make the state (`init_state`) at the first update, and move it to the
        parameter's device when the parameter moved or the state was loaded."""
        array = param.array
        if type(array) is numpy.ndarray:
            home = 'cpu'
        else:
            home = backend.get_device_from_array(array)
            if home.xp is numpy:
                home = 'cpu'
        state = self._state
        if state is None:
            self._state = {}
            self.init_state(param)
            self._state_home = home
        elif self._state_home != home:
            # The parameter moved (to_device) or the state was loaded from a snapshot
            # taken on another device: the state follows the parameter, as in Chainer.
            device = backend.CpuDevice() if home == 'cpu' else home
            array_types = backend.get_array_types()
            for key, value in state.items():
                if isinstance(value, array_types):
                    state[key] = device.send(value)
            self._scratch = None
            self._state_home = home

    def use_fp32_update(self, flag=True):
        """Update float16 parameters through a float32 master copy."""
        self._use_fp32_update = flag


class Optimizer:
    """Base class of all optimizers.

    [`setup`][minichainer.optimizer.Optimizer.setup] registers the target link;
    [`update`][minichainer.optimizer.Optimizer.update] (implemented by subclasses) updates its
    parameters. Hooks registered with [`add_hook`][minichainer.optimizer.Optimizer.add_hook] run
    before (`timing='pre'`) or after (`'post'`) each update; a hook whose `call_for_each_param` is
    true is called as `hook(param.update_rule, param)` for every parameter, otherwise as
    `hook(optimizer)`.

    Attributes:
        target: The target link (None before [`setup`][minichainer.optimizer.Optimizer.setup]).
        t (int): Number of update steps.
        epoch (int): Current epoch, incremented by
            [`new_epoch`][minichainer.optimizer.Optimizer.new_epoch].
        use_auto_new_epoch (bool): True when an updater calls
            [`new_epoch`][minichainer.optimizer.Optimizer.new_epoch].
    """

    target = None
    t = 0
    epoch = 0
    _pre_update_hooks = None
    _post_update_hooks = None
    _loss_scale = None
    _loss_scale_max = 65504  # the largest float16
    _loss_scaling_is_dynamic = False
    _loss_scaling_isnan = False
    use_auto_new_epoch = False

    def setup(self, link):
        """Set the target link, reset `t`/`epoch`/hooks, and return `self`.

        Raises:
            TypeError: `link` is not a [`Link`][minichainer.link.Link].
        """
        if not isinstance(link, link_module.Link):
            raise TypeError(
                '{}.setup: optimization target must be a link (chainer.Link), got {}'
                .format(type(self).__name__, type(link).__name__))
        self.target = link
        self.t = 0
        self.epoch = 0
        self._pre_update_hooks = collections.OrderedDict()
        self._post_update_hooks = collections.OrderedDict()
        return self

    def update(self, lossfun=None, *args, **kwds):
        """Update the parameters of the target (to be implemented by subclasses)."""
        raise NotImplementedError

    def new_epoch(self, auto=False):
        """Increment `epoch`.

        Args:
            auto (bool): True when called by an updater, which must have set
                `use_auto_new_epoch`.

        Raises:
            RuntimeError: `auto` disagrees with `use_auto_new_epoch`.
        """
        if auto:
            if not self.use_auto_new_epoch:
                raise RuntimeError(
                    'invalid new_epoch call with auto=True.\n'
                    'Fix the updater to set optimizer.use_auto_new_epoch = True.')
        elif self.use_auto_new_epoch:
            raise RuntimeError(
                'duplicated new_epoch with the updater.\n'
                'Pass auto_new_epoch=False to the updater or stop calling '
                'new_epoch outside the updater.')
        self.epoch += 1

    def add_hook(self, hook, name=None, timing='auto'):
        """Register a hook function.

        Args:
            hook (callable): `hook(optimizer)`, or `hook(rule, param)` when
                `hook.call_for_each_param` is true.
            name (str): Registration name; defaults to `hook.name`.
            timing (str): `'pre'`, `'post'` or `'auto'` (the hook's `timing`
                attribute; `'pre'` with a warning when it has none).

        Raises:
            TypeError: `hook` is not callable.
            RuntimeError: [`setup`][minichainer.optimizer.Optimizer.setup] has not been called.
            ValueError: unknown `timing`.
            KeyError: `name` is already registered.
        """
        if not callable(hook):
            raise TypeError(
                '{}.add_hook: hook must be callable, got {!r}'.format(
                    type(self).__name__, hook))
        if self._pre_update_hooks is None or self._post_update_hooks is None:
            raise RuntimeError('call `setup` method before `add_hook` method')
        _register_hook(type(self).__name__, self._pre_update_hooks,
                       self._post_update_hooks, hook, name, timing,
                       invalid_timing_fallback=True)

    def _check_set_up(self):
        if self._pre_update_hooks is None:
            raise RuntimeError(
                '{} is not set up. Call `setup` method.'.format(type(self).__name__))

    def remove_hook(self, name):
        """Unregister the hook registered as `name`.

        Raises:
            RuntimeError: [`setup`][minichainer.optimizer.Optimizer.setup] has not been called.
            KeyError: no hook is registered as `name`.
        """
        self._check_set_up()
        _unregister_hook(self._pre_update_hooks, self._post_update_hooks, name)

    def call_hooks(self, timing='pre'):
        """Invoke the hooks of `timing` (`'pre'` or `'post'`) in registration
        order, each through [`call_hook`][minichainer.optimizer.Optimizer.call_hook].

        Raises:
            RuntimeError: [`setup`][minichainer.optimizer.Optimizer.setup] has not been called.
        """
        self._check_set_up()
        for hook in self._hooks_of(timing).values():
            self.call_hook(hook)

    def _hooks_of(self, timing):
        if timing == 'pre':
            return self._pre_update_hooks
        if timing == 'post':
            return self._post_update_hooks
        raise ValueError(
            "call_hooks: timing must be either 'pre' or 'post', got {!r}".format(timing))

    def call_hook(self, hook):
        """Invoke one hook: `hook(param.update_rule, param)` for every parameter when
        `hook.call_for_each_param` is true, `hook(self)` otherwise."""
        if getattr(hook, 'call_for_each_param', False):
            for param in self.target.params():
                hook(param.update_rule, param)
        else:
            hook(self)

    def serialize(self, serializer):
        """Save or load `t`, `epoch` and every update rule's state.

        Keys are `t`, `epoch` and `<param path>/<state key>` (e.g. `l1/W/m`), as
        in Chainer. The parameters themselves are not saved: serialize the link too.
        """
        if self.target is None:
            raise RuntimeError(
                '{}.serialize: call setup(link) before serializing the optimizer'
                .format(type(self).__name__))
        self.t = serializer('t', self.t)
        self.epoch = serializer('epoch', self.epoch)
        for name, param in self.target.namedparams():
            rule = getattr(param, 'update_rule', None)
            if rule is not None:
                rule.serialize(serializer[name])

    def loss_scaling(self, interval=1000, scale=None):
        """Configure loss scaling.

        Args:
            interval (int): Iterations after which the dynamic scale doubles.
            scale (float): A fixed scale, or None for dynamic loss scaling.

        Raises:
            ValueError: `interval < 1` or `scale <= 0`.
        """
        if scale is None:
            self._loss_scaling_is_dynamic = True
            if interval < 1:
                raise ValueError(
                    'interval must be greater than or equal to 1. Actual: {}'
                    .format(interval))
            self._loss_scale = 1.0
            self._loss_scaling_multiplier = math.pow(2.0, 1.0 / interval)
            self._loss_scaling_isnan_ever = False
        else:
            if scale <= 0:
                raise ValueError(
                    'loss_scale must be a positive number. Actual: {}'.format(scale))
            self._loss_scale = scale

    def set_loss_scale(self, loss_scale):
        """Set a fixed loss scale."""
        self.loss_scaling(scale=loss_scale)

    def check_nan_in_grads(self):
        """With dynamic loss scaling, flag (and warn about) non-finite gradients.

        Gradients on a GPU are tested there and their flags come to the host in one copy
        per device (Chainer copies one flag per parameter).
        """
        self._loss_scaling_isnan = False
        if not self._loss_scaling_is_dynamic:
            return
        finite = []  # (name, bool or the index of a device flag)
        device_flags = {}  # device -> [flags]
        for name, param in self.target.namedparams():
            grad = param.grad
            if grad is None:
                continue
            if isinstance(grad, numpy.ndarray):
                finite.append((name, None, bool(numpy.isfinite(grad).all())))
                continue
            device = backend.get_device_from_array(grad)
            flags = device_flags.setdefault(device, [])
            flags.append(device.xp.isfinite(grad).all())
            finite.append((name, device, len(flags) - 1))
        if device_flags:
            cpu = backend.CpuDevice()
            on_host = {}
            for device, flags in device_flags.items():
                with backend.using_device(device):
                    on_host[device] = cpu.send(device.xp.stack(flags))
        for name, device, value in finite:
            if device is not None:
                value = bool(on_host[device][value])
            if not value:
                self._loss_scaling_isnan = True
                self._loss_scaling_isnan_ever = True
                warnings.warn(
                    'Non finite number found in param.grad of {} (iteration: {}, '
                    'loss_scale: {})'.format(name, self.t, self._loss_scale))

    def is_safe_to_update(self):
        """False when dynamic loss scaling found non-finite gradients at this step."""
        return not self._loss_scaling_isnan

    def update_loss_scale(self):
        """Adjust the dynamic loss scale after an update."""
        if not self._loss_scaling_is_dynamic:
            return
        if self._loss_scaling_isnan:
            multiplier = 0.5
        elif self._loss_scaling_isnan_ever:
            multiplier = self._loss_scaling_multiplier
        else:
            multiplier = 2.0
        self._loss_scale = max(1, min(self._loss_scale_max,
                                      self._loss_scale * multiplier))


class GradientMethod(Optimizer):
    """Base class of optimizers that update from one gradient per step.

    Each parameter of the target gets the update rule returned by
    [`create_update_rule`][minichainer.optimizer.GradientMethod.create_update_rule]; `hyperparam` is
    the parent of every rule's hyperparameter.

    Attributes:
        hyperparam (Hyperparameter): The optimizer-wide hyperparameter.
    """

    def __init__(self):
        super().__init__()
        self.hyperparam = Hyperparameter()
        self._use_fp32_update = False

    def setup(self, link):
        super().setup(link)
        for param in link.params():
            param.update_rule = self.create_update_rule()
            if self._use_fp32_update:
                param.update_rule.use_fp32_update()
        return self

    def reallocate_cleared_grads(self):
        """Give every initialized parameter whose gradient is None a zero gradient."""
        for param in self.target.params(False):
            if param.grad is None:
                param.grad = backend.get_array_module(param.array).zeros_like(param.array)

    def call_hook(self, hook):
        """Invoke one hook (see [`Optimizer.call_hook`][minichainer.optimizer.Optimizer.call_hook]),
        then reallocate the gradients it cleared."""
        Optimizer.call_hook(self, hook)
        self.reallocate_cleared_grads()

    def update(self, lossfun=None, *args, **kwds):
        """Update the parameters from `lossfun(*args, **kwds)` or the current gradients.

        With `lossfun`, the gradients are cleared, the loss is computed and
        back-propagated (with the loss scale, if any). Then pre-update hooks run, every
        parameter's update rule runs, and post-update hooks run.

        Raises:
            RuntimeError: `setup` has not been called.
        """
        target = self.target
        if target is None:
            raise RuntimeError(
                '{}.update: no target link; call optimizer.setup(link) before update()'
                .format(type(self).__name__))
        if lossfun is not None:
            use_cleargrads = getattr(self, '_use_cleargrads', True)
            loss = lossfun(*args, **kwds)
            if use_cleargrads:
                target.cleargrads()
            else:
                target.zerograds()
            if self._loss_scale is None:
                loss.backward()
            else:
                loss.backward(loss_scale=self._loss_scale)
            del loss

        self.reallocate_cleared_grads()
        self.check_nan_in_grads()
        if self._pre_update_hooks:
            self.call_hooks('pre')

        self.t += 1
        if self.is_safe_to_update():
            for param in target.params():
                param.update()

        self.reallocate_cleared_grads()
        if self._post_update_hooks:
            self.call_hooks('post')
        self.update_loss_scale()

    def use_cleargrads(self, use=True):
        """Deprecated: choose `cleargrads` (default) or `zerograds` in
        [`update`][minichainer.optimizer.GradientMethod.update]."""
        warnings.warn('GradientMethod.use_cleargrads is deprecated.', DeprecationWarning)
        self._use_cleargrads = use

    def create_update_rule(self):
        """Return a new update rule for one parameter (to be overridden)."""
        raise NotImplementedError

    def use_fp32_update(self, flag=True):
        """Update float16 parameters through float32 master copies."""
        self._use_fp32_update = flag
        link = getattr(self, 'target', None)
        if link is not None:
            for param in link.params():
                param.update_rule.use_fp32_update()


class HyperparameterProxy:
    """Class attribute that aliases `self.hyperparam.<attr_name>` (read and write).

    Args:
        attr_name (str): Name of the hyperparameter entry.
    """

    def __init__(self, attr_name):
        self._attr_name = attr_name
        self.__doc__ = 'Alias to `self.hyperparam.{}`'.format(attr_name)

    def __get__(self, obj, type=None):
        if obj is None:
            return self
        return getattr(obj.hyperparam, self._attr_name)

    def __set__(self, obj, value):
        setattr(obj.hyperparam, self._attr_name, value)


def make_deprecation_message(module_name):
    return ('chainer.optimizer.{0} is deprecated from v4. '
            'Use chainer.optimizer_hooks.{0} instead.'.format(module_name))


def _deprecated_hook(base):
    def __init__(self, *args, **kwargs):
        warnings.warn(make_deprecation_message(base.__name__), DeprecationWarning)
        base.__init__(self, *args, **kwargs)
    return type(base.__name__, (base,), {
        '__init__': __init__,
        '__doc__': 'Deprecated alias of ``optimizer_hooks.{}``.'.format(base.__name__),
        '__module__': __name__})


WeightDecay = _deprecated_hook(optimizer_hooks.WeightDecay)
Lasso = _deprecated_hook(optimizer_hooks.Lasso)
GradientClipping = _deprecated_hook(optimizer_hooks.GradientClipping)
GradientNoise = _deprecated_hook(optimizer_hooks.GradientNoise)
GradientHardClipping = _deprecated_hook(optimizer_hooks.GradientHardClipping)
