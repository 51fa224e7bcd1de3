/*
 * HipdnnConvolutionMode.h - hipdnnConvolutionMode_t, the value of
 * HIPDNN_ATTR_CONVOLUTION_CONV_MODE (element type HIPDNN_TYPE_CONVOLUTION_MODE).
 */
#ifndef HIPDNN_CONVOLUTION_MODE_H
#define HIPDNN_CONVOLUTION_MODE_H

typedef enum
{
    HIPDNN_CONVOLUTION = 0,       /* mathematical convolution: the filter is flipped */
    HIPDNN_CROSS_CORRELATION = 1  /* the filter is applied as stored (what DL frameworks call
                                     convolution) */
} hipdnnConvolutionMode_t;

#endif /* HIPDNN_CONVOLUTION_MODE_H */
