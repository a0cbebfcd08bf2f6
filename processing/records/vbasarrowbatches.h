#pragma once

#include "vbascodedrows.h"

#include <QString>

#include <gdal.h>

#include <functional>
#include <string>
#include <vector>

/**
 * Released rows appended to an OGR layer through GDAL's own Arrow write (OGR_L_WriteArrowBatch, GDAL 3.8 and
 * later): each column an Arrow array of the type GDAL maps to the layer's field, 4,096 rows a batch.
 */
namespace VbasArrowBatches
{
/** Whether this GDAL writes Arrow batches. */
bool available();

/** The Arrow array a column is written as, by the OGR type of its field. */
enum class Type
{
    Int32,   //!< OFTInteger, flags included
    Int64,   //!< OFTInteger64
    Float64, //!< OFTReal
    Utf8,    //!< OFTString
    Date32,  //!< OFTDate
};

/** The Arrow array for a field of OGR type `ogrType`; false when GDAL's Arrow write takes none here. */
bool typeOf(OGRFieldType ogrType, Type& type);

/** A column of the layer: its OGR field name and array type. */
struct Column
{
    std::string name;
    Type type = Type::Utf8;
};

/**
 * Appends `rows` to `layer`, whose fields `columns` name in the order of the rows' values (after the row
 * number, of an integer type, when rows.numbered); calls `written` with the rows written so far before each
 * batch and at the end. False with `error` when GDAL refuses a batch (the rows already written stay in the
 * caller's transaction).
 */
bool write(OGRLayerH layer, const std::vector<Column>& columns, const VbasCodedRows& rows,
           const std::function<void(std::size_t)>& written, QString& error);
} // namespace VbasArrowBatches
