"""A StandardUpdater subclass that trains a GAN with two optimizers."""
import minichainer as chainer
import minichainer.functions as F


class GANUpdater(chainer.training.updaters.StandardUpdater):
    """One iteration = one discriminator step and one generator step.

    The iterator and the two optimizers are passed as dicts; ``update_core`` is the
    only method to override: everything else (``iteration``, ``epoch_detail``,
    ``is_new_epoch``, serialization of both optimizers for snapshots) comes from
    StandardUpdater.
    """

    def __init__(self, *args, **kwargs):
        self.gen, self.dis = kwargs.pop('models')
        super().__init__(*args, **kwargs)

    def loss_dis(self, dis, y_fake, y_real):
        # -log sigmoid(y_real) - log(1 - sigmoid(y_fake)), averaged over the batch
        batchsize = len(y_fake)
        loss = (F.sum(F.softplus(-y_real)) + F.sum(F.softplus(y_fake))) / batchsize
        chainer.report({'loss': loss}, dis)
        return loss

    def loss_gen(self, gen, y_fake):
        # the non-saturating generator loss -log sigmoid(y_fake)
        loss = F.sum(F.softplus(-y_fake)) / len(y_fake)
        chainer.report({'loss': loss}, gen)
        return loss

    def update_core(self):
        gen_optimizer = self.get_optimizer('gen')
        dis_optimizer = self.get_optimizer('dis')

        batch = self.get_iterator('main').next()
        x_real = self.converter(batch, self.device)
        xp = chainer.backend.get_array_module(x_real)
        gen, dis = self.gen, self.dis

        y_real = dis(x_real)
        z = xp.asarray(gen.make_hidden(len(batch)))
        x_fake = gen(z)
        y_fake = dis(x_fake)

        # update(lossfun, *args) clears the target's grads, computes lossfun(*args),
        # backprops and steps. The discriminator step also backprops into the
        # generator's graph, but only the discriminator's parameters move;
        # the generator's step clears its grads first.
        dis_optimizer.update(self.loss_dis, dis, y_fake, y_real)
        gen_optimizer.update(self.loss_gen, gen, y_fake)
