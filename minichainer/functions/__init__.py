"""Differentiable functions (`chainer.functions`, usually imported as `F`).

Each function lives in its own module under a family package (`activation`, `array`,
`connection`, ...), as in Chainer; the family packages themselves are empty so that
`from minichainer.functions.activation import relu` gives the *module*, as Chainer
code expects.  This file collects the public functions."""
# flake8: noqa

# activation
from minichainer.functions.activation.clipped_relu import clipped_relu
from minichainer.functions.activation.clipped_relu import relu6
from minichainer.functions.activation.crelu import crelu
from minichainer.functions.activation.elu import elu
from minichainer.functions.activation.hard_sigmoid import hard_sigmoid
from minichainer.functions.activation.leaky_relu import leaky_relu
from minichainer.functions.activation.log_softmax import log_softmax
from minichainer.functions.activation.lstm import lstm
from minichainer.functions.activation.maxout import maxout
from minichainer.functions.activation.prelu import prelu
from minichainer.functions.activation.relu import relu
from minichainer.functions.activation.rrelu import rrelu
from minichainer.functions.activation.selu import selu
from minichainer.functions.activation.sigmoid import sigmoid
from minichainer.functions.activation.slstm import slstm
from minichainer.functions.activation.softmax import softmax
from minichainer.functions.activation.softplus import softplus
from minichainer.functions.activation.swish import swish
from minichainer.functions.activation.tanh import tanh

# array
from minichainer.functions.array.as_strided import as_strided
from minichainer.functions.array.broadcast import broadcast
from minichainer.functions.array.broadcast import broadcast_to
from minichainer.functions.array.cast import cast
from minichainer.functions.array.concat import concat
from minichainer.functions.array.copy import copy
from minichainer.functions.array.depth2space import depth2space
from minichainer.functions.array.diagonal import diagonal
from minichainer.functions.array.dstack import dstack
from minichainer.functions.array.expand_dims import expand_dims
from minichainer.functions.array.flatten import flatten
from minichainer.functions.array.flip import flip
from minichainer.functions.array.fliplr import fliplr
from minichainer.functions.array.flipud import flipud
from minichainer.functions.array.get_item import get_item
from minichainer.functions.array.hstack import hstack
from minichainer.functions.array.im2col import im2col
from minichainer.functions.array.moveaxis import moveaxis
from minichainer.functions.array.pad import pad
from minichainer.functions.array.pad_sequence import pad_sequence
from minichainer.functions.array.permutate import permutate
from minichainer.functions.array.repeat import repeat
from minichainer.functions.array.reshape import reshape
from minichainer.functions.array.resize_images import resize_images
from minichainer.functions.array.rollaxis import rollaxis
from minichainer.functions.array.scatter_add import scatter_add
from minichainer.functions.array.select_item import select_item
from minichainer.functions.array.separate import separate
from minichainer.functions.array.space2depth import space2depth
from minichainer.functions.array.spatial_transformer_grid import spatial_transformer_grid
from minichainer.functions.array.spatial_transformer_sampler import spatial_transformer_sampler
from minichainer.functions.array.split_axis import split_axis
from minichainer.functions.array.squeeze import squeeze
from minichainer.functions.array.stack import stack
from minichainer.functions.array.swapaxes import swapaxes
from minichainer.functions.array.tile import tile
from minichainer.functions.array.transpose import transpose
from minichainer.functions.array.transpose_sequence import transpose_sequence
from minichainer.functions.array.vstack import vstack
from minichainer.functions.array.where import where

# connection
from minichainer.functions.connection.bilinear import bilinear
from minichainer.functions.connection.convolution_2d import convolution_2d
from minichainer.functions.connection.convolution_nd import convolution_1d
from minichainer.functions.connection.convolution_nd import convolution_3d
from minichainer.functions.connection.convolution_nd import convolution_nd
from minichainer.functions.connection.deconvolution_2d import deconvolution_2d
from minichainer.functions.connection.deconvolution_nd import deconvolution_1d
from minichainer.functions.connection.deconvolution_nd import deconvolution_3d
from minichainer.functions.connection.deconvolution_nd import deconvolution_nd
from minichainer.functions.connection.deformable_convolution_2d_sampler import deformable_convolution_2d_sampler
from minichainer.functions.connection.depthwise_convolution_2d import depthwise_convolution_2d
from minichainer.functions.connection.dilated_convolution_2d import dilated_convolution_2d
from minichainer.functions.connection.embed_id import embed_id
from minichainer.functions.connection.linear import linear
from minichainer.functions.connection.local_convolution_2d import local_convolution_2d
from minichainer.functions.connection.shift import shift
from minichainer.functions.rnn.n_step_gru import n_step_bigru
from minichainer.functions.rnn.n_step_gru import n_step_gru
from minichainer.functions.rnn.n_step_lstm import n_step_bilstm
from minichainer.functions.rnn.n_step_lstm import n_step_lstm
from minichainer.functions.rnn.n_step_rnn import n_step_birnn
from minichainer.functions.rnn.n_step_rnn import n_step_rnn
from minichainer.functions.rnn.tree_lstm import tree_lstm

# evaluation
from minichainer.functions.evaluation.accuracy import accuracy
from minichainer.functions.evaluation.binary_accuracy import binary_accuracy
from minichainer.functions.evaluation.classification_summary import classification_summary
from minichainer.functions.evaluation.classification_summary import f1_score
from minichainer.functions.evaluation.classification_summary import precision
from minichainer.functions.evaluation.classification_summary import recall
from minichainer.functions.evaluation.r2_score import r2_score

# loss
from minichainer.functions.loss.absolute_error import absolute_error
from minichainer.functions.loss.black_out import black_out
from minichainer.functions.loss.contrastive import contrastive
from minichainer.functions.loss.crf1d import argmax_crf1d
from minichainer.functions.loss.crf1d import crf1d
from minichainer.functions.loss.cross_covariance import cross_covariance
from minichainer.functions.loss.ctc import connectionist_temporal_classification
from minichainer.functions.loss.decov import decov
from minichainer.functions.loss.discriminative_loss import discriminative_margin_based_clustering_loss
from minichainer.functions.loss.hinge import hinge
from minichainer.functions.loss.huber_loss import huber_loss
from minichainer.functions.loss.mean_absolute_error import mean_absolute_error
from minichainer.functions.loss.mean_squared_error import mean_squared_error
from minichainer.functions.loss.negative_sampling import negative_sampling
from minichainer.functions.loss.sigmoid_cross_entropy import sigmoid_cross_entropy
from minichainer.functions.loss.softmax_cross_entropy import softmax_cross_entropy
from minichainer.functions.loss.squared_error import squared_error
from minichainer.functions.loss.triplet import triplet
from minichainer.functions.loss.vae import bernoulli_nll
from minichainer.functions.loss.vae import gaussian_kl_divergence
from minichainer.functions.loss.vae import gaussian_nll

# math
from minichainer.functions.math.arctanh import arctanh
from minichainer.functions.math.average import average
from minichainer.functions.math.average import average as mean
from minichainer.functions.math.basic_math import absolute
from minichainer.functions.math.basic_math import add
from minichainer.functions.math.batch_l2_norm_squared import batch_l2_norm_squared
from minichainer.functions.math.bias import bias
from minichainer.functions.math.ceil import ceil
from minichainer.functions.math.cholesky import cholesky
from minichainer.functions.math.clip import clip
from minichainer.functions.math.cumprod import cumprod
from minichainer.functions.math.cumsum import cumsum
from minichainer.functions.math.det import batch_det
from minichainer.functions.math.det import det
from minichainer.functions.math.digamma import digamma
from minichainer.functions.math.einsum import einsum
from minichainer.functions.math.erf import erf
from minichainer.functions.math.erfc import erfc
from minichainer.functions.math.erfcinv import erfcinv
from minichainer.functions.math.erfcx import erfcx
from minichainer.functions.math.erfinv import erfinv
from minichainer.functions.math.exponential import exp
from minichainer.functions.math.exponential import log
from minichainer.functions.math.exponential import log10
from minichainer.functions.math.exponential import log2
from minichainer.functions.math.exponential_m1 import expm1
from minichainer.functions.math.fft import fft
from minichainer.functions.math.fft import ifft
from minichainer.functions.math.fix import fix
from minichainer.functions.math.floor import floor
from minichainer.functions.math.fmod import fmod
from minichainer.functions.math.hyperbolic import cosh
from minichainer.functions.math.hyperbolic import sinh
from minichainer.functions.math.identity import identity
from minichainer.functions.math.inv import batch_inv
from minichainer.functions.math.inv import inv
from minichainer.functions.math.lgamma import lgamma
from minichainer.functions.math.linear_interpolate import linear_interpolate
from minichainer.functions.math.log_ndtr import log_ndtr
from minichainer.functions.math.logarithm_1p import log1p
from minichainer.functions.math.logsumexp import logsumexp
from minichainer.functions.math.matmul import batch_matmul
from minichainer.functions.math.matmul import matmul
from minichainer.functions.math.maximum import maximum
from minichainer.functions.math.minimum import minimum
from minichainer.functions.math.minmax import argmax
from minichainer.functions.math.minmax import argmin
from minichainer.functions.math.minmax import max
from minichainer.functions.math.minmax import min
from minichainer.functions.math.ndtr import ndtr
from minichainer.functions.math.ndtri import ndtri
from minichainer.functions.math.polygamma import polygamma
from minichainer.functions.math.prod import prod
from minichainer.functions.math.scale import scale
from minichainer.functions.math.sign import sign
from minichainer.functions.math.sparse_matmul import sparse_matmul
from minichainer.functions.math.sqrt import rsqrt
from minichainer.functions.math.sqrt import sqrt
from minichainer.functions.math.square import square
from minichainer.functions.math.squared_difference import squared_difference
from minichainer.functions.math.sum import sum
from minichainer.functions.math.sum import sum_to
from minichainer.functions.math.tensordot import tensordot
from minichainer.functions.math.trigonometric import arccos
from minichainer.functions.math.trigonometric import arcsin
from minichainer.functions.math.trigonometric import arctan
from minichainer.functions.math.trigonometric import arctan2
from minichainer.functions.math.trigonometric import cos
from minichainer.functions.math.trigonometric import sin
from minichainer.functions.math.trigonometric import tan
from minichainer.functions.math.zeta import zeta

# noise
from minichainer.functions.noise.dropout import dropout
from minichainer.functions.noise.gaussian import gaussian
from minichainer.functions.noise.gumbel_softmax import gumbel_softmax
from minichainer.functions.noise.simplified_dropconnect import simplified_dropconnect
from minichainer.functions.noise.zoneout import zoneout

# normalization
from minichainer.functions.normalization.batch_normalization import batch_normalization
from minichainer.functions.normalization.batch_normalization import fixed_batch_normalization
from minichainer.functions.normalization.batch_renormalization import batch_renormalization
from minichainer.functions.normalization.batch_renormalization import fixed_batch_renormalization
from minichainer.functions.normalization.decorrelated_batch_normalization import decorrelated_batch_normalization  # noqa: E501
from minichainer.functions.normalization.decorrelated_batch_normalization import fixed_decorrelated_batch_normalization  # noqa: E501
from minichainer.functions.normalization.group_normalization import group_normalization
from minichainer.functions.normalization.l2_normalization import normalize
from minichainer.functions.normalization.layer_normalization import layer_normalization
from minichainer.functions.normalization.local_response_normalization import local_response_normalization

# pooling
from minichainer.functions.pooling.average_pooling_2d import average_pooling_2d
from minichainer.functions.pooling.average_pooling_nd import average_pooling_1d
from minichainer.functions.pooling.average_pooling_nd import average_pooling_3d
from minichainer.functions.pooling.average_pooling_nd import average_pooling_nd
from minichainer.functions.pooling.max_pooling_2d import max_pooling_2d
from minichainer.functions.pooling.max_pooling_nd import max_pooling_1d
from minichainer.functions.pooling.max_pooling_nd import max_pooling_3d
from minichainer.functions.pooling.max_pooling_nd import max_pooling_nd
from minichainer.functions.pooling.roi_average_align_2d import roi_average_align_2d
from minichainer.functions.pooling.roi_average_pooling_2d import roi_average_pooling_2d
from minichainer.functions.pooling.roi_max_align_2d import roi_max_align_2d
from minichainer.functions.pooling.roi_max_pooling_2d import roi_max_pooling_2d
from minichainer.functions.pooling.roi_pooling_2d import roi_pooling_2d
from minichainer.functions.pooling.spatial_pyramid_pooling_2d import spatial_pyramid_pooling_2d
from minichainer.functions.pooling.unpooling_2d import unpooling_2d
from minichainer.functions.pooling.unpooling_nd import unpooling_1d
from minichainer.functions.pooling.unpooling_nd import unpooling_3d
from minichainer.functions.pooling.unpooling_nd import unpooling_nd
from minichainer.functions.pooling.upsampling_2d import upsampling_2d

# util
from minichainer.functions.util.forget import forget

# The method forms of functions on Variable (v.reshape, v.T, v[i], v.mean) and the
# old-style gradient sums, registered for the core (see minichainer/_operations.py).
from minichainer import _operations  # noqa: E402

_operations.register(reshape=reshape, transpose=transpose, average=average, get_item=get_item,
                     add=add)
